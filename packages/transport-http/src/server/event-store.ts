/**
 * Resumability storage (MCP 2025-11-25 transports, "Resumability and Redelivery"): every SSE
 * event the server sends is appended to an `EventStore` under its stream's id, and a GET with
 * `Last-Event-ID` replays what came after that id on that stream only. The bounded in-process
 * store is in `memory-event-store.ts`.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";

/** A value or a promise of it: in-memory stores answer synchronously, remote ones need not. */
export type MaybePromise<T> = T | Promise<T>;

/** One stored event. */
export interface StoredEvent {
  /** The event id sent in the SSE `id:` field. */
  readonly id: string;
  /** The message the event carried. */
  readonly message: JsonRpcMessage;
}

/** What a replay found: the stream the id belongs to and the events after it, in order. */
export interface EventReplay {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
  /**
   * Shared stores only: true when the stream was ended (`end`), false when it may still grow on
   * another instance (the handler then follows it). Undefined: the store does not know.
   */
  readonly ended?: boolean;
}

/** Receives the events a shared store's stream gets from any instance; `undefined` once it ended. */
export type EventListener = (event: StoredEvent | undefined) => void;

/**
 * Where SSE events are kept for replay. Implement it over Redis or a database to resume across
 * restarts; `createMemoryEventStore` is the bounded in-process one. The handler calls `append` in
 * stream order and never concurrently for one stream.
 */
export interface EventStore {
  /**
   * Stores one event of `streamId` and returns its id, unique across every stream of the store
   * and free of line breaks. `undefined` stores a marker (the priming event) that replays as nothing.
   * `encoded` is the message's JSON when the caller has it (a store may use it to count bytes).
   */
  append(streamId: string, message: JsonRpcMessage | undefined, encoded?: string): MaybePromise<string>;
  /**
   * The events after `lastEventId` on its stream, oldest first. Must return undefined when the id
   * is unknown or when events after it were evicted: a client must never resume over a silent gap.
   */
  replay(lastEventId: string): MaybePromise<EventReplay | undefined>;
  /** Forgets whole streams (their session ended). */
  forget(streamIds: readonly string[]): MaybePromise<void>;
  /**
   * Shared stores (many instances): calls `listener` with every event appended to `streamId` from
   * now on, by any instance, in order, and with `undefined` once `end` is called for it. Resolves
   * once listening (events appended after that reach it); the returned function stops it. With
   * it, a `Last-Event-ID` resume on one instance follows a stream another instance still writes.
   */
  follow?(streamId: string, listener: EventListener): MaybePromise<() => void>;
  /** Shared stores: marks `streamId` complete (the handler calls it when a POST's stream ends). */
  end?(streamId: string): MaybePromise<void>;
}

export { createMemoryEventStore, mintsValidIds } from "./memory-event-store";
export type { MemoryEventStore, MemoryEventStoreOptions } from "./memory-event-store";
