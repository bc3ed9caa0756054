/**
 * One Streamable HTTP session as a `Transport` (one transport = one MCP session, contracts 2):
 * frames of its POSTs reach the sink with their own exchanges, `send` goes to the standalone
 * GET stream (or waits in a bounded queue for one), and `close` ends every stream of the session.
 */
import type { JsonRpcMessage, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { TransportError, FaultCode } from "@proto/jsonrpc";
import { HttpServerError, HttpServerFault } from "./errors";
import type { PostExchange } from "./exchange";
import type { ConnectionWriter } from "./io";
import { createSseStream } from "./stream";
import type { SseStream, StreamHooks, StreamSettings } from "./stream";

/** Stream ids a session keeps to forget in the event store when it closes; older finished ones are forgotten at once. */
const MAX_REMEMBERED_STREAMS = 1_000;

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
}

/** A session: its transport plus what the handler needs to route requests to it. */
export interface Session {
  readonly id: string | undefined;
  readonly principalKey: string;
  readonly holder: string;
  readonly transport: Transport;
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
  /** Tracks an in-flight POST exchange until it ends. */
  track(exchange: PostExchange): () => void;
  /** Opens the logical stream of a POST. */
  openStream(hooks: StreamHooks): SseStream;
  /** True when `streamId` was created by this session. */
  owns(streamId: string): boolean;
  /** The live stream with this id, if it is still open. */
  live(streamId: string): SseStream | undefined;
  /** Attaches a GET connection as the standalone stream (replacing an older one) and flushes the queue. */
  listen(connection: ConnectionWriter, prime: boolean): void;
  close(reason?: Error): Promise<void>;
}

/** Creates a session and its transport. */
export function createSession(config: SessionConfig): Session {
  let sink: TransportSink | undefined;
  let closed = false;
  let lastSeen = config.now();
  let streamCount = 0;
  const exchanges = new Set<PostExchange>();
  const streams = new Map<string, SseStream>();
  const created: string[] = [];
  let standalone: SseStream | undefined;
  const queue: JsonRpcMessage[] = [];

  function openStream(hooks: StreamHooks): SseStream {
    const id = `${config.streamPrefix}.${streamCount++}`;
    const stream = createSseStream(id, config.settings, {
      lost: () => hooks.lost(),
      fault: (error) => hooks.fault(error),
      done: () => {
        streams.delete(id);
        session.touch();
        hooks.done();
      },
    });
    streams.set(id, stream);
    if (config.settings.store) remember(id);
    return stream;
  }

  /**
   * Remembers a stream id to forget in the store when the session closes. Past
   * `MAX_REMEMBERED_STREAMS`, the oldest finished stream is forgotten now, so a long session
   * leaves nothing behind in the store either (a live one is kept: it may still be resumed).
   */
  function remember(id: string): void {
    created.push(id);
    if (created.length <= MAX_REMEMBERED_STREAMS) return;
    const at = created.findIndex((old, i) => i < created.length - 1 && !streams.has(old) && old !== standalone?.id);
    if (at < 0) return;
    const [old] = created.splice(at, 1) as [string];
    Promise.resolve()
      .then(() => config.settings.store?.forget([old]))
      .catch((cause: unknown) => config.fault(new HttpServerError(HttpServerFault.EventStoreFailed, "event store forget failed", { cause })));
  }

  async function send(payload: JsonRpcPayload): Promise<void> {
    if (closed) throw new TransportError(FaultCode.Closed, "the session is closed; messages can no longer be sent on it");
    if (config.id === undefined) {
      throw new HttpServerError(HttpServerFault.StreamGone, "a stateless handler has no standalone stream: server-initiated messages must relate to a request");
    }
    const messages: readonly JsonRpcMessage[] = Array.isArray(payload) ? payload : [payload as JsonRpcMessage];
    const target = standalone;
    if (target && (target.connected || target.resumable)) {
      await Promise.all(messages.map((message) => target.write(message)));
      return;
    }
    if (queue.length + messages.length > config.maxQueued) {
      throw new HttpServerError(HttpServerFault.QueueFull, `no GET stream is open and ${config.maxQueued} messages already wait for one; raise maxQueuedMessages or have the client open the GET stream`);
    }
    queue.push(...messages);
  }

  const transport: Transport = {
    async start(next) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      sink = next;
    },
    send,
    close: (reason) => close(reason),
  };

  async function close(reason?: Error): Promise<void> {
    if (closed) return;
    closed = true;
    const why = reason ?? new HttpServerError(HttpServerFault.SessionClosed, "the session was closed");
    for (const exchange of exchanges) exchange.abort(why);
    exchanges.clear();
    for (const stream of [...streams.values()]) stream.close();
    standalone?.close();
    queue.length = 0;
    if (created.length > 0 && config.settings.store) {
      try {
        await config.settings.store.forget(created.splice(0, created.length));
      } catch (cause) {
        config.fault(new HttpServerError(HttpServerFault.EventStoreFailed, "event store forget failed", { cause }));
      }
    }
    config.closed(session);
    sink?.closed(reason);
  }

  const session: Session = {
    id: config.id,
    principalKey: config.principalKey,
    holder: config.holder,
    transport,
    protocolVersion: undefined,
    get lastSeen() {
      return lastSeen;
    },
    get busy() {
      if (exchanges.size > 0 || standalone?.connected) return true;
      for (const stream of streams.values()) if (stream.connected) return true;
      return false;
    },
    get pending() {
      return exchanges.size > 0;
    },
    get isClosed() {
      return closed;
    },
    get sink() {
      return sink;
    },
    touch() {
      lastSeen = config.now();
    },
    track(exchange) {
      exchanges.add(exchange);
      return () => {
        exchanges.delete(exchange);
        lastSeen = config.now();
      };
    },
    openStream,
    owns: (streamId) => streamId.startsWith(`${config.streamPrefix}.`),
    live: (streamId) => (standalone?.id === streamId ? standalone : streams.get(streamId)),
    listen(connection, prime) {
      if (!standalone) {
        const id = `${config.streamPrefix}.${streamCount++}`;
        if (config.settings.store) remember(id);
        standalone = createSseStream(id, config.settings, {
          lost: () => session.touch(),
          done: () => undefined,
          fault: (error) => config.fault(error),
        });
      }
      standalone.attach(connection, prime);
      connection.onClose(() => session.touch());
      const waiting = queue.splice(0, queue.length);
      for (const message of waiting) void standalone.write(message).catch((error: unknown) => config.fault(error as Error));
    },
    close,
  };
  return session;
}
