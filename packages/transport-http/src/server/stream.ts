/**
 * One logical SSE stream: the answer stream of a POST, or a session's standalone GET stream.
 * A stream outlives its connections when an event store is configured: events are stored as
 * they are written, a dropped connection detaches, and a GET with `Last-Event-ID` re-attaches a
 * new connection after replaying what was missed (MCP 2025-11-25 transports, "Resumability and
 * Redelivery"). Every write, the priming event and every resume go through one promise chain, so
 * replay and live events never interleave: no loss, no duplicates.
 */
import { encode } from "@proto/jsonrpc";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import type { EventStore } from "./event-store";
import type { ConnectionWriter } from "./io";
import { isValidEventId, SSE_KEEP_ALIVE, sseMessage, ssePriming, sseRetry } from "./sse";
import { after, every } from "./timers";

/** How streams behave; shared by every stream of a handler. */
export interface StreamSettings {
  readonly store: EventStore | undefined;
  /** The SSE `retry` value sent with priming events and before an early close. */
  readonly retryMs: number;
  /** Interval of keep-alive comments; 0 disables them. */
  readonly keepAliveMs: number;
  /** With a store, end each connection (not the stream) after this long so clients poll; 0 = never. */
  readonly closeAfterMs: number;
}

/** What a stream tells its owner. */
export interface StreamHooks {
  /** The connection went away before any event id reached the client: nothing can resume. */
  lost(): void;
  /** The stream ended (finished or closed); it will accept no more writes. */
  done(): void;
  /** A fault to report (a failed store call). */
  fault(error: HttpServerError): void;
  /** Rewrites each message before it is stored and sent (shared sessions tag outbound request ids). */
  readonly outgoing?: ((message: JsonRpcMessage) => JsonRpcMessage) | undefined;
}

/** A logical SSE stream. */
export interface SseStream {
  readonly id: string;
  /** True while a connection is attached. */
  readonly connected: boolean;
  /** True once the client holds an event id of this stream (it can resume). */
  readonly resumable: boolean;
  /** Writes one message as an event (stored first when there is a store); `data` is its encoding when the caller has it. */
  write(message: JsonRpcMessage, data?: string): Promise<void>;
  /** Attaches a fresh connection now; `prime` sends the priming event first (store only). */
  attach(connection: ConnectionWriter, prime: boolean): void;
  /**
   * Reserves the head of the stream for a connection that the adapter will start (a POST's
   * answer): writes queue behind it, and the priming event still goes first. Returns the
   * function the adapter calls with its connection (`StreamAnswer.open`).
   */
  open(prime: boolean): (connection: ConnectionWriter) => void;
  /** Replays the events after `lastEventId` on `connection`, then attaches it (or ends it if the stream is done). */
  resume(connection: ConnectionWriter, lastEventId: string): void;
  /** Ends the stream once every queued write is out. */
  finish(): void;
  /** Ends the stream and its connection now. */
  close(): void;
}

function gone(id: string): HttpServerError {
  return new HttpServerError(HttpFaultCode.StreamGone, `SSE stream ${id} has no connection and cannot be resumed; the message was not delivered`);
}

/** Creates a logical stream. */
export function createSseStream(id: string, settings: StreamSettings, hooks: StreamHooks): SseStream {
  const { store } = settings;
  let connection: ConnectionWriter | undefined;
  let resumable = false;
  let finished = false;
  let tail: Promise<void> = Promise.resolve();
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  let closer: ReturnType<typeof setTimeout> | undefined;

  function enqueue(step: () => Promise<void>): Promise<void> {
    const next = tail.then(step);
    tail = next.catch(() => undefined);
    return next;
  }

  async function append(message: JsonRpcMessage | undefined, data?: string): Promise<string | undefined> {
    if (!store) return undefined;
    let eventId: string;
    try {
      eventId = await store.append(id, message, data);
    } catch (cause) {
      const error = new HttpServerError(HttpFaultCode.EventStoreFailed, `event store append failed on stream ${id}`, { cause });
      hooks.fault(error);
      throw error;
    }
    if (typeof eventId !== "string" || eventId === "" || !isValidEventId(eventId)) {
      const error = new HttpServerError(HttpFaultCode.EventStoreFailed, `event store returned an invalid event id for stream ${id}: ids must be non-empty strings without line breaks`);
      hooks.fault(error);
      throw error;
    }
    return eventId;
  }

  function stopTimers(): void {
    if (keepAlive !== undefined) clearInterval(keepAlive);
    if (closer !== undefined) clearTimeout(closer);
    keepAlive = undefined;
    closer = undefined;
  }

  function detach(end: boolean): void {
    const current = connection;
    connection = undefined;
    stopTimers();
    if (end) current?.end();
  }

  function connect(next: ConnectionWriter): void {
    detach(true);
    connection = next;
    next.onClose(() => {
      if (connection !== next) return;
      detach(false);
      if (!finished && !(store && resumable)) hooks.lost();
    });
    if (settings.keepAliveMs > 0) {
      keepAlive = every(settings.keepAliveMs, () => {
        if (connection === next && !next.closed) void next.write(SSE_KEEP_ALIVE).catch(() => undefined);
      });
    }
    if (store && settings.closeAfterMs > 0) {
      closer = after(settings.closeAfterMs, () => {
        if (connection !== next || !resumable) return;
        void enqueue(async () => {
          if (connection !== next) return;
          await next.write(sseRetry(settings.retryMs)).catch(() => undefined);
          detach(true);
        });
      });
    }
  }

  async function emit(original: JsonRpcMessage, encoded: string | undefined): Promise<void> {
    const message = hooks.outgoing === undefined ? original : hooks.outgoing(original);
    const data = (message === original ? encoded : undefined) ?? encode(message);
    const eventId = await append(message, data);
    const current = connection;
    if (current && !current.closed) {
      try {
        await current.write(sseMessage(data, eventId));
        if (eventId !== undefined) resumable = true;
        return;
      } catch {
        // the client went away mid-write: fall through to the stored copy, if any
      }
    }
    if (eventId !== undefined && resumable) return;
    throw gone(id);
  }

  async function sendPriming(next: ConnectionWriter): Promise<void> {
    const eventId = await append(undefined);
    if (eventId === undefined || connection !== next) return;
    await next.write(ssePriming(eventId, settings.retryMs));
    resumable = true;
  }

  async function replayOnto(target: ConnectionWriter, lastEventId: string): Promise<boolean> {
    let replay;
    try {
      replay = store ? await store.replay(lastEventId) : undefined;
    } catch (cause) {
      hooks.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, `event store replay failed on stream ${id}`, { cause }));
      return false;
    }
    if (!replay || replay.streamId !== id) return false;
    for (const event of replay.events) await target.write(sseMessage(encode(event.message), event.id));
    return true;
  }

  return {
    id,
    get connected() {
      return connection !== undefined;
    },
    get resumable() {
      return resumable;
    },
    write(message, data) {
      if (finished) return Promise.reject(gone(id));
      return enqueue(() => emit(message, data));
    },
    attach(next, prime) {
      connect(next);
      if (prime && store) void enqueue(() => sendPriming(next)).catch(() => undefined);
    },
    open(prime) {
      let deliver!: (next: ConnectionWriter) => void;
      const arrived = new Promise<ConnectionWriter>((resolve) => (deliver = resolve));
      void enqueue(async () => {
        const next = await arrived;
        if (finished) return next.end();
        connect(next);
        if (prime && store) await sendPriming(next);
      }).catch(() => undefined);
      return deliver;
    },
    resume(next, lastEventId) {
      void enqueue(async () => {
        const ok = await replayOnto(next, lastEventId);
        if (!ok || finished || next.closed) {
          next.end();
          return;
        }
        connect(next);
        resumable = true;
      }).catch(() => next.end());
    },
    finish() {
      if (finished) return;
      void enqueue(async () => {
        if (finished) return;
        finished = true;
        detach(true);
        hooks.done();
      });
    },
    close() {
      if (finished) return;
      finished = true;
      detach(true);
      hooks.done();
    },
  };
}
