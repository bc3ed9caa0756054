/**
 * The types of a logical SSE stream (`stream.ts`): its settings, what it tells its owner, and
 * what its users call.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";
import type { HttpServerError } from "./errors";
import type { EventStore } from "./event-store";
import type { ConnectionWriter } from "./io";

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

/** Told when any of its streams ends, before the stream's own `done` hook (a session forgets the stream). */
export interface StreamOwner {
  streamDone(stream: SseStream): void;
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
   * Reserves the head of the stream for a connection the adapter will start (a POST's answer):
   * writes queue behind it, and the priming event (`prime`, store only) still goes first.
   * `arrive` hands that connection over.
   */
  reserve(prime: boolean): void;
  /** The connection `reserve` waited for (`StreamAnswer.open`). */
  arrive(connection: ConnectionWriter): void;
  /** Replays the events after `lastEventId` on `connection`, then attaches it (or ends it if the stream is done). */
  resume(connection: ConnectionWriter, lastEventId: string): void;
  /** Ends the stream once every queued write is out. */
  finish(): void;
  /** Ends the stream and its connection now. */
  close(): void;
}
