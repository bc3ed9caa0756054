/**
 * Cancellation of forwarded calls without an `AbortSignal` made per call. Making one costs
 * Node about 2.4 µs and its first listener 1.7 µs more (with their garbage, a third of the
 * gateway's CPU per forwarded `tools/call`, measured), and a forwarded call needs two: the
 * upstream request's (the server makes it on first read of `ctx.signal`) and the child
 * request's.
 *
 * So each call borrows a live signal for its child request from a pool (given back unaborted
 * when the call ends: adding and removing a listener on a reused signal costs ~0.2 µs), and
 * the upstream request's signal is read only for calls still in flight at the next sweep
 * (every `SWEEP_MS` while calls are in flight): from then on an upstream cancel (or the
 * upstream stream going away) aborts the borrowed signal, which cancels the child's request
 * with its own id. A cancel that came earlier is found at that sweep (the server keeps it for
 * the first read), so it reaches the child within `SWEEP_MS` to `2 * SWEEP_MS`; a call that
 * ends before then owes its child nothing.
 */
import type { RequestContext } from "@proto/mcp-server";

/** How often calls in flight are looked at. */
export const SWEEP_MS = 10;

/** Most idle signals kept for reuse. */
const MAX_FREE = 256;

/** One call's borrowed signal. */
export interface WatchedCall {
  /** The signal to give the child's request. */
  readonly signal: AbortSignal;
}

/** The cancellation watch of a pool. */
export interface CancelWatch {
  /** Lends a signal for the child request of `ctx`'s call; give it back with `release` when the call ends. */
  borrow(ctx: RequestContext): WatchedCall;
  /** The call ended: its signal goes back to the pool unless it was aborted. */
  release(call: WatchedCall): void;
  /** Cancels the child requests of `ctx`'s calls still in flight (their results would go unread), with `reason`. */
  abandon(ctx: RequestContext, reason: Error): void;
  /** Stops the sweeps. */
  close(): void;
}

class Watched implements WatchedCall {
  armed = false;
  listener: (() => void) | undefined = undefined;

  constructor(
    readonly ctx: RequestContext,
    readonly controller: AbortController,
    readonly generation: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Links the upstream request's signal to the borrowed one. */
  arm(): void {
    this.armed = true;
    const upstream = this.ctx.signal;
    if (upstream.aborted) return this.controller.abort(upstream.reason);
    this.listener = () => this.controller.abort(upstream.reason);
    upstream.addEventListener("abort", this.listener, { once: true });
  }
}

/** Creates the watch of one pool. */
export function createCancelWatch(): CancelWatch {
  const free: AbortController[] = [];
  const live = new Set<Watched>();
  let generation = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  function sweep(): void {
    timer = undefined;
    // Calls borrowed before the previous sweep: in flight for SWEEP_MS at least.
    for (const call of live) if (!call.armed && call.generation < generation) call.arm();
    generation++;
    if (live.size > 0) schedule();
  }

  function schedule(): void {
    if (timer !== undefined || closed) return;
    timer = setTimeout(sweep, SWEEP_MS);
    (timer as { unref?: () => void }).unref?.();
  }

  return {
    borrow(ctx) {
      const call = new Watched(ctx, free.pop() ?? new AbortController(), generation);
      live.add(call);
      schedule();
      return call;
    },
    release(given) {
      const call = given as Watched;
      if (!live.delete(call)) return;
      if (call.listener !== undefined) call.ctx.signal.removeEventListener("abort", call.listener);
      // Every layer under the child's request removes its listeners when the request settles,
      // so an unaborted signal is as good as new.
      if (!call.controller.signal.aborted && free.length < MAX_FREE) free.push(call.controller);
    },
    abandon(ctx, reason) {
      for (const call of live) if (call.ctx === ctx) call.controller.abort(reason);
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
