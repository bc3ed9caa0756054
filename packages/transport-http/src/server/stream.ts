/**
 * One logical SSE stream: the answer stream of a POST, or a session's standalone GET stream.
 * A stream outlives its connections when an event store is configured: events are stored as
 * they are written, a dropped connection detaches, and a GET with `Last-Event-ID` re-attaches a
 * new connection after replaying what was missed (MCP 2025-11-25 transports, "Resumability and
 * Redelivery"). Writes, the priming event and resumes run in order, one at a time: while nothing
 * waits (the store and the connection answer at once, as the in-memory store and a Node response
 * do) each runs synchronously, with no promise per event; a step that has to wait (a remote store,
 * backpressure, a POST's connection not yet handed over) queues every later one behind it, so
 * replay and live events never interleave: no loss, no duplicates.
 */
import { encode } from "@proto/jsonrpc";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import type { EventStore } from "./event-store";
import type { ConnectionWriter } from "./io";
import { SSE_KEEP_ALIVE, sseMessage, ssePriming, sseRetry } from "./sse";
import { StepQueue } from "./step-queue";
import { StreamEvents } from "./stream-events";
import type { SseStream, StreamHooks, StreamOwner, StreamSettings } from "./stream-types";
import { after, tickerOf } from "./timers";
import type { Ticker } from "./timers";

export type { SseStream, StreamHooks, StreamOwner, StreamSettings } from "./stream-types";

const ignore = (): void => undefined;

function gone(id: string): HttpServerError {
  return new HttpServerError(HttpFaultCode.StreamGone, `SSE stream ${id} has no connection and cannot be resumed; the message was not delivered`);
}

/** Creates a logical stream; `owner` hears of its end first. */
export function createSseStream(id: string, settings: StreamSettings, hooks: StreamHooks, owner?: StreamOwner): SseStream {
  return new LogicalStream(id, settings, hooks, owner);
}

class LogicalStream implements SseStream {
  private connection: ConnectionWriter | undefined;
  private isResumable = false;
  private finished = false;
  /** Writes, priming, resumes and the end, in order; closed while a POST's connection is awaited. */
  private readonly steps = new StepQueue();
  private primeOnArrival = false;
  private readonly store: EventStore | undefined;
  /** Appends and replays the events of this stream, when there is a store. */
  private readonly events: StreamEvents | undefined;
  private readonly ticker: Ticker | undefined;
  private ticking = false;
  private closer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly id: string,
    private readonly settings: StreamSettings,
    private readonly hooks: StreamHooks,
    private readonly owner: StreamOwner | undefined,
  ) {
    this.store = settings.store;
    this.events = this.store === undefined ? undefined : new StreamEvents(id, this.store, hooks);
    this.ticker = settings.keepAliveMs > 0 ? tickerOf(settings.keepAliveMs) : undefined;
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  get resumable(): boolean {
    return this.isResumable;
  }

  write(message: JsonRpcMessage, data?: string): Promise<void> {
    if (this.finished) return Promise.reject(gone(this.id));
    return this.steps.run(() => this.emit(message, data));
  }

  attach(next: ConnectionWriter, prime: boolean): void {
    this.connect(next);
    if (prime && this.store) this.steps.runQuietly(() => this.prime(next));
  }

  reserve(prime: boolean): void {
    this.steps.close();
    this.primeOnArrival = prime;
  }

  arrive(next: ConnectionWriter): void {
    let pending: Promise<void> | undefined;
    if (this.finished) next.end();
    else {
      this.connect(next);
      if (this.primeOnArrival && this.store) {
        try {
          pending = this.prime(next);
        } catch {
          // a failed append was reported; the stream goes on without a priming event
        }
      }
    }
    this.steps.open(pending);
  }

  resume(next: ConnectionWriter, lastEventId: string): void {
    const step = async (): Promise<void> => {
      const ok = await this.replayOnto(next, lastEventId);
      if (!ok || this.finished || next.closed) {
        next.end();
        return;
      }
      this.connect(next);
      this.isResumable = true;
    };
    this.steps.run(step).catch(() => next.end());
  }

  finish(): void {
    if (this.finished) return;
    this.steps.runQuietly(() => this.end());
  }

  close(): void {
    if (this.finished) return;
    this.end();
  }

  /** The keep-alive tick (the ticker calls it while a connection is attached). */
  tick(): void {
    const current = this.connection;
    if (current !== undefined && !current.closed) current.write(SSE_KEEP_ALIVE)?.catch(ignore);
  }

  private end(): undefined {
    if (this.finished) return undefined;
    this.finished = true;
    this.detach(true);
    // steps queued behind a connection that will never arrive now run, and fail, instead of hanging
    this.steps.open();
    this.owner?.streamDone(this);
    this.hooks.done();
    return undefined;
  }

  private emit(original: JsonRpcMessage, encoded: string | undefined): Promise<void> | undefined {
    const outgoing = this.hooks.outgoing;
    const message = outgoing === undefined ? original : outgoing(original);
    const data = (message === original ? encoded : undefined) ?? encode(message);
    if (this.store === undefined) return this.send(data, undefined);
    const eventId = (this.events as StreamEvents).append(message, data);
    return typeof eventId === "string" ? this.send(data, eventId) : eventId.then((id) => this.send(data, id));
  }

  private send(data: string, eventId: string | undefined): Promise<void> | undefined {
    const current = this.connection;
    if (current !== undefined && !current.closed) {
      let pending;
      try {
        pending = current.write(sseMessage(data, eventId));
      } catch {
        return this.undelivered(eventId);
      }
      if (pending === undefined) {
        if (eventId !== undefined) this.isResumable = true;
        return undefined;
      }
      return pending.then(
        () => {
          if (eventId !== undefined) this.isResumable = true;
        },
        // the client went away mid-write: the stored copy, if any, is what counts
        () => this.undelivered(eventId),
      );
    }
    return this.undelivered(eventId);
  }

  private undelivered(eventId: string | undefined): undefined {
    if (eventId !== undefined && this.isResumable) return undefined;
    throw gone(this.id);
  }

  private prime(next: ConnectionWriter): Promise<void> | undefined {
    const eventId = (this.events as StreamEvents).append(undefined);
    return typeof eventId === "string" ? this.sendPriming(next, eventId) : eventId.then((id) => this.sendPriming(next, id));
  }

  private sendPriming(next: ConnectionWriter, eventId: string): Promise<void> | undefined {
    if (this.connection !== next) return undefined;
    const pending = next.write(ssePriming(eventId, this.settings.retryMs));
    this.isResumable ||= pending === undefined;
    return pending?.then(() => {
      this.isResumable = true;
    });
  }

  private async replayOnto(target: ConnectionWriter, lastEventId: string): Promise<boolean> {
    return this.events === undefined ? false : this.events.replayOnto(target, lastEventId);
  }

  private stopTimers(): void {
    if (this.ticking) this.ticker?.delete(this);
    if (this.closer !== undefined) clearTimeout(this.closer);
    this.ticking = false;
    this.closer = undefined;
  }

  private detach(end: boolean): void {
    const current = this.connection;
    this.connection = undefined;
    this.stopTimers();
    if (end) current?.end();
  }

  private connect(next: ConnectionWriter): void {
    this.detach(true);
    this.connection = next;
    next.onClose(() => {
      if (this.connection !== next) return;
      this.detach(false);
      if (!this.finished && !(this.store && this.isResumable)) this.hooks.lost();
    });
    if (this.ticker !== undefined) {
      this.ticker.add(this);
      this.ticking = true;
    }
    if (this.store && this.settings.closeAfterMs > 0) this.closer = after(this.settings.closeAfterMs, () => this.closeEarly(next));
  }

  /** `closeSseAfterMs`: ends the connection (not the stream) with a `retry` hint, so the client resumes. */
  private closeEarly(next: ConnectionWriter): void {
    if (this.connection !== next || !this.isResumable) return;
    this.steps.runQuietly(() => {
      if (this.connection !== next) return undefined;
      const detach = (): void => this.detach(true);
      const pending = next.write(sseRetry(this.settings.retryMs));
      if (pending !== undefined) return pending.then(detach, detach);
      detach();
      return undefined;
    });
  }
}
