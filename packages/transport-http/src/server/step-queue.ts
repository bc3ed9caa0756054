/**
 * Steps that must run one at a time and in order (the writes of one SSE stream), without a
 * promise per step while nothing waits: a step runs at once when the queue is idle, and only a
 * step that returns a promise (a remote store, backpressure) makes later ones queue behind it.
 * A gate holds every step until it opens (a POST's connection not yet handed over).
 */

/** One step: undefined when it finished at once, else a promise of its end. */
export type Step = () => Promise<void> | undefined;

/** A resolved promise shared by every step that finished at once. */
export const DONE: Promise<void> = Promise.resolve();

const ignore = (): void => undefined;

/** An ordered queue of steps that costs nothing while idle. */
export class StepQueue {
  /** The last queued step (settles, never rejects); undefined while nothing waits. */
  private tail: Promise<void> | undefined;
  private gated = false;
  private release: (() => void) | undefined;

  /** True when a step would run at once. */
  get idle(): boolean {
    return this.tail === undefined && !this.gated;
  }

  /** Holds every later step until `open`. */
  close(): void {
    this.gated = true;
  }

  /** Opens the gate, once `first` (run in the gate's place) is over when given. */
  open(first?: Promise<void>): void {
    this.gated = false;
    const release = this.release;
    this.release = undefined;
    if (release !== undefined) {
      if (first === undefined) release();
      else first.then(release, release);
    } else if (first !== undefined) this.after(first);
  }

  /** Runs `step` in order; the promise settles as it does (at once when idle and the step did not wait). */
  run(step: Step): Promise<void> {
    if (!this.idle) return this.push(step);
    try {
      const pending = step();
      if (pending === undefined) return DONE;
      this.after(pending);
      return pending;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** `run`, its failure ignored. */
  runQuietly(step: Step): void {
    if (!this.idle) {
      this.push(step).catch(ignore);
      return;
    }
    try {
      const pending = step();
      if (pending !== undefined) this.after(pending);
    } catch {
      // the step reports its own failures where they matter
    }
  }

  /** Makes later steps wait for `pending` (an at-once step's own promise). */
  after(pending: Promise<void>): void {
    const settled: Promise<void> = pending.then(
      () => this.settle(settled),
      () => this.settle(settled),
    );
    this.tail = settled;
  }

  private push(step: Step): Promise<void> {
    let base = this.tail;
    if (base === undefined) base = this.gated ? new Promise<void>((resolve) => (this.release = resolve)) : DONE;
    const next = base.then(step);
    this.after(next);
    return next;
  }

  private settle(settled: Promise<void>): void {
    if (this.tail === settled) this.tail = undefined;
  }
}
