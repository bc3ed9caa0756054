/**
 * The types of one Streamable HTTP session (`session.ts`): what it needs from its handler, how it
 * takes part in a multi-instance deployment, and what the handler calls on it.
 */
import type { JsonRpcMessage, Transport, TransportSink } from "@proto/jsonrpc";
import type { PostExchange } from "./exchange";
import type { ConnectionWriter, OutHeaders } from "./io";
import type { SseStream, StreamHooks, StreamSettings } from "./stream-types";

/**
 * How a session takes part in a multi-instance deployment (handler option `shared`): this
 * instance's copy of the session is one replica among several.
 */
export interface SessionSharing {
  /** A random tag of this replica: its POST stream ids and outbound request ids carry it, so replicas never collide. */
  readonly tag: string;
  /** Publishes messages to the replica holding the session's GET stream; resolves false when none does. */
  forward(messages: readonly JsonRpcMessage[]): Promise<boolean>;
  /** This replica's GET connection opened (true) or closed (false): it receives forwarded messages while it holds one. */
  holding(held: boolean): void;
  /** A request to the client went out on POST stream `streamId` with this (tagged) id: journaled with the request the stream answers. */
  outbound(streamId: string, requestId: string): void;
}

/** What a session needs from its handler. */
export interface SessionConfig {
  /** The `Mcp-Session-Id`, or undefined in stateless mode. */
  readonly id: string | undefined;
  /** Who opened it (issuer and subject); later requests must match. */
  readonly principalKey: string;
  /** Whose share the session counts against at the cap: the principal key, or the anonymous caller's address group. */
  readonly holder: string;
  /** A random prefix of this session's stream ids, so a `Last-Event-ID` can be tied to its session. */
  readonly streamPrefix: string;
  readonly settings: StreamSettings;
  /** Messages `send` may queue while no GET stream is open. */
  readonly maxQueued: number;
  readonly now: () => number;
  fault(error: Error): void;
  /** Called once when the session closes (remove it from the registry). */
  closed(session: Session): void;
  /** Set in a multi-instance deployment; its streams then expire with the shared record instead of being forgotten at close. */
  readonly sharing?: SessionSharing;
}

/** A session: its transport plus what the handler needs to route requests to it. */
export interface Session {
  readonly id: string | undefined;
  readonly principalKey: string;
  readonly holder: string;
  readonly transport: Transport;
  /** `Mcp-Session-Id` as an answer header (empty when stateless): shared by every answer without CORS headers, so never mutated. */
  readonly headers: OutHeaders;
  /** The version `initialize` negotiated, once known. */
  protocolVersion: string | undefined;
  /** When the session was last used (ms, handler clock). */
  readonly lastSeen: number;
  /** True while a request is in flight or a stream is connected: never evicted then. */
  readonly busy: boolean;
  /** True while a request is in flight: such a session is never evicted to make room. */
  readonly pending: boolean;
  readonly isClosed: boolean;
  readonly sink: TransportSink | undefined;
  touch(): void;
  /** Tracks an in-flight POST exchange until `untrack`. */
  track(exchange: PostExchange): void;
  /** The exchange ended: no longer in flight. */
  untrack(exchange: PostExchange): void;
  /** Opens the logical stream of a POST. */
  openStream(hooks: StreamHooks): SseStream;
  /** True when `streamId` was created by this session. */
  owns(streamId: string): boolean;
  /** The live stream with this id, if it is still open. */
  live(streamId: string): SseStream | undefined;
  /**
   * Attaches a GET connection as the standalone stream (replacing an older one) and flushes the
   * queue; with `lastEventId`, replays what the client missed on it first.
   */
  listen(connection: ConnectionWriter, prime: boolean, lastEventId?: string): void;
  /** The id of the standalone stream when it is the same on every replica (shared sessions), else undefined. */
  readonly standaloneId: string | undefined;
  /** Writes messages another replica forwarded to the standalone stream (or queues them). */
  forwarded(messages: readonly JsonRpcMessage[]): void;
  /** The response with its original id when `message` answers a request this replica sent, else undefined. */
  claim(message: JsonRpcMessage): JsonRpcMessage | undefined;
  /** Shared sessions: `message` with the replica-unique id a request to the client gets (others unchanged). */
  tagOutbound(message: JsonRpcMessage): JsonRpcMessage;
  close(reason?: Error): Promise<void>;
}
