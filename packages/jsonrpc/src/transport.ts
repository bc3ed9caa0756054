/**
 * The seam between protocol layers and the bytes: a `Transport` carries payloads, a
 * `TransportSink` receives them, and each inbound frame comes with an `Exchange` that
 * replies on the same stream (for Streamable HTTP, the POST's response body).
 */
import type { JsonRpcPayload } from "./types";
import type { TransportError } from "./errors";

/** Who sent a frame, as the transport authenticated them (for example from a bearer JWT). */
export interface Principal {
  /** A stable identifier of the caller (the JWT `sub`, an API key id). */
  readonly subject: string;
  /** Granted scopes (OAuth `scope`, split on spaces). */
  readonly scopes: readonly string[];
  /** Every claim the verifier accepted, as plain data. */
  readonly claims: { readonly [key: string]: unknown };
  /** The raw credential, when a handler must forward it. */
  readonly token?: string;
  /** Token expiry in seconds since the epoch, when known. */
  readonly expiresAt?: number;
}

/** What the transport knows about one inbound frame. Plain data; transports add fields here, never on `Transport`. */
export interface ExchangeInfo {
  /** A short transport name: `"memory"`, `"stdio"`, `"http"`, `"websocket"`. */
  readonly transport: string;
  /** The session id the frame arrived on (Streamable HTTP `Mcp-Session-Id`), when there is one. */
  readonly sessionId?: string;
  /** The authenticated caller, when the transport authenticates. */
  readonly principal?: Principal;
  /** Request headers, lower-cased names (HTTP transports only). */
  readonly headers?: { readonly [name: string]: string };
  /**
   * True when the frame belongs to no session (stateless Streamable HTTP: one transport per
   * POST). A protocol layer treats such a transport as initialized: the `initialize` the client
   * sent went to another transport.
   */
  readonly stateless?: boolean;
}

/**
 * One inbound frame's way back. Created by the transport for each frame it delivers.
 *
 * `reply` may be called several times: related notifications and requests first, then the
 * responses. A reply that rejects was not written (only a reply that resolved counts as an
 * answer). The consumer calls `finish` once the frame owes nothing more: a transport that
 * answers on a stream (an HTTP POST) ends that stream then. A transport with a single stream
 * (stdio, WebSocket, memory) simply writes each payload.
 */
export interface Exchange {
  /** Sends a payload back on the stream this frame came from. Rejects when that stream is gone. */
  reply(payload: JsonRpcPayload): Promise<void>;
  /** Aborted when the stream this frame came on goes away (the HTTP client disconnected, the transport closed). */
  readonly signal: AbortSignal;
  /**
   * Optional: true once `signal` has aborted. The `Peer` reads it before each response when
   * present, so a transport that creates its `AbortController` lazily need not create one per
   * frame just to be asked.
   */
  readonly aborted?: boolean;
  /** What the transport knows about this frame. */
  readonly info: ExchangeInfo;
  /**
   * Optional: called once by the consumer of the frame (the `Peer`) when the frame owes nothing
   * more: every request in it has been answered by a `reply` that resolved, or deliberately
   * dropped (the other side cancelled it, which MCP forbids answering; the peer closed; this
   * exchange's `signal` aborted; a reply failed even after the -32603 fallback). A frame without
   * requests is finished as soon as it has been routed. A transport that ends a stream per frame
   * (an HTTP POST) ends it here, so it never counts ids itself; a transport whose input ended
   * uses it to know when nothing is owed. Single-stream transports may leave it out. A sink that
   * is not a `Peer` must call it the same way, once per frame it was handed.
   */
  finish?(): void;
}

/** Receives what a transport reads. Exactly one sink per transport. */
export interface TransportSink {
  /** One decoded frame (a message or a batch) and the exchange to answer it on. */
  payload(payload: JsonRpcPayload, exchange: Exchange): void;
  /** A recoverable fault: one bad frame, one failed write. The transport goes on. */
  error(error: TransportError): void;
  /** Final, called exactly once: the transport is closed (by either side, or by a fault when `reason` is set). */
  closed(reason?: Error): void;
}

/**
 * A bidirectional message channel. The owner calls `start` once, `send` any number of
 * times, and `close` when done; `close` is idempotent and makes the transport call
 * `sink.closed` exactly once.
 */
export interface Transport {
  /** Starts reading and delivering frames to `sink`. Call once; a second call rejects with a `TypeError`. */
  start(sink: TransportSink): Promise<void>;
  /** Sends an unsolicited payload (not a reply to an inbound frame). Rejects once closed. */
  send(payload: JsonRpcPayload): Promise<void>;
  /** Closes the channel and releases its resources. Idempotent. */
  close(reason?: Error): Promise<void>;
  /**
   * Optional, read-only: which server this transport reaches, for what a client remembers
   * beyond one connection (the protocol era a probe found). Opaque; equal keys mean the same
   * server. The stdio client gives its command line, the HTTP clients the URL's origin.
   */
  readonly serverKey?: string;
  /**
   * Optional: an opaque id of the credentials the next request would carry (the HTTP clients:
   * a digest of the current bearer token), or undefined when it carries none. Equal ids mean
   * the same credentials; a client keys `cacheScope: "private"` lists by it. Asked only when
   * such a list is cached or read; rejects when the credentials cannot be had.
   */
  credentialId?(): Promise<string | undefined>;
}
