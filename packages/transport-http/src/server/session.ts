/**
 * One Streamable HTTP session as a `Transport` (one transport = one MCP session, contracts 2):
 * frames of its POSTs reach the sink with their own exchanges, `send` goes to the standalone
 * GET stream (or waits in a bounded queue for one), and `close` ends every stream of the session.
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { isRequest, TransportError, JsonRpcFaultCode } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import type { PostExchange } from "./exchange";
import { HttpHeader } from "../shared/headers";
import type { ConnectionWriter, OutHeaders } from "./io";
import { createSseStream } from "./stream";
import type { SseStream, StreamHooks, StreamOwner, StreamSettings } from "./stream";

/** Stream ids a session keeps to forget in the event store when it closes; older finished ones are forgotten at once. */
const MAX_REMEMBERED_STREAMS = 1_000;

/** Outbound request ids a replica remembers to claim their responses (oldest forgotten first). */
const MAX_TAGGED_REQUESTS = 10_000;

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

/** Creates a session and its transport. */
export function createSession(config: SessionConfig): Session {
  let sink: TransportSink | undefined;
  let closed = false;
  let lastSeen = config.now();
  let streamCount = 0;
  const exchanges = new Set<PostExchange>();
  const streams = new Map<string, SseStream>();
  let created: string[] = []; // in creation order, from createdHead
  let createdHead = 0;
  let standalone: SseStream | undefined;
  const queue: JsonRpcMessage[] = [];
  const { sharing } = config;
  const tagged = new Map<string, JsonRpcId>();
  const standaloneId = sharing === undefined ? undefined : `${config.streamPrefix}.get`;

  /** Gives a request this replica sends an id no other replica uses (responses may come back to any instance). */
  function tag(message: JsonRpcMessage): JsonRpcMessage {
    if (sharing === undefined || !isRequest(message) || typeof message.id !== "number") return message;
    const id = `${sharing.tag}~${message.id}`;
    tagged.set(id, message.id);
    if (tagged.size > MAX_TAGGED_REQUESTS) tagged.delete(tagged.keys().next().value as string);
    return { ...message, id };
  }

  function ended(id: string): void {
    const store = config.settings.store;
    if (sharing === undefined || store?.end === undefined) return;
    Promise.resolve()
      .then(() => store.end?.(id))
      .catch((cause: unknown) => config.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, `event store end failed on stream ${id}`, { cause })));
  }

  /** Told by each POST stream when it ends: forgotten here, the store told (shared), the session touched. */
  const owner: StreamOwner = {
    streamDone(stream) {
      streams.delete(stream.id);
      ended(stream.id);
      session.touch();
    },
  };

  function openStream(hooks: StreamHooks): SseStream {
    const id = sharing === undefined ? `${config.streamPrefix}.${streamCount++}` : `${config.streamPrefix}.${sharing.tag}${streamCount++}`;
    const streamHooks: StreamHooks = sharing === undefined ? hooks : {
      lost: () => hooks.lost(),
      fault: (error) => hooks.fault(error),
      done: () => hooks.done(),
      outgoing: (message) => {
        const tagged = tag(message);
        if (tagged !== message && isRequest(tagged)) sharing.outbound(id, String(tagged.id));
        return tagged;
      },
    };
    const stream = createSseStream(id, config.settings, streamHooks, owner);
    streams.set(id, stream);
    if (config.settings.store && sharing === undefined) remember(id);
    return stream;
  }

  /**
   * Remembers a stream id to forget in the store when the session closes. Past
   * `MAX_REMEMBERED_STREAMS`, the oldest finished stream is forgotten now, so a long session
   * leaves nothing behind in the store either (a live one is kept: it may still be resumed).
   * The ids are a queue from `createdHead` (oldest first): forgetting the oldest is O(1), and one
   * behind a few live streams moves only those.
   */
  function remember(id: string): void {
    created.push(id);
    if (created.length - createdHead <= MAX_REMEMBERED_STREAMS) return;
    let at = createdHead;
    const last = created.length - 1;
    while (at < last && (streams.has(created[at] as string) || created[at] === standalone?.id)) at++;
    if (at === last) return;
    const old = created[at] as string;
    for (let i = at; i > createdHead; i--) created[i] = created[i - 1] as string;
    createdHead++;
    if (createdHead > MAX_REMEMBERED_STREAMS) {
      created = created.slice(createdHead);
      createdHead = 0;
    }
    const failed = (cause: unknown): void => config.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, "event store forget failed", { cause }));
    try {
      // an in-memory store forgets synchronously: no promise per POST once past the limit
      const forgotten = config.settings.store?.forget([old]);
      if (forgotten instanceof Promise) forgotten.catch(failed);
    } catch (cause) {
      failed(cause);
    }
  }

  async function send(payload: JsonRpcPayload): Promise<void> {
    if (closed) throw new TransportError(JsonRpcFaultCode.Closed, "the session is closed; messages can no longer be sent on it");
    if (config.id === undefined) {
      throw new HttpServerError(HttpFaultCode.StreamGone, "a stateless handler has no standalone stream: server-initiated messages must relate to a request");
    }
    let messages: readonly JsonRpcMessage[] = Array.isArray(payload) ? payload : [payload as JsonRpcMessage];
    if (sharing !== undefined && !standalone?.connected) {
      messages = messages.map(tag);
      if (await sharing.forward(messages)) return;
      // no replica holds a GET connection now: stored on the shared standalone stream, a resume from any instance replays them
      const store = config.settings.store;
      if (store !== undefined && standaloneId !== undefined) {
        try {
          for (const message of messages) await store.append(standaloneId, message);
        } catch (cause) {
          throw new HttpServerError(HttpFaultCode.EventStoreFailed, `event store append failed on stream ${standaloneId}`, { cause });
        }
        return;
      }
    }
    const target = standalone;
    if (target && (target.connected || target.resumable)) {
      await Promise.all(messages.map((message) => target.write(message)));
      return;
    }
    if (queue.length + messages.length > config.maxQueued) {
      throw new HttpServerError(HttpFaultCode.QueueFull, `no GET stream is open and ${config.maxQueued} messages already wait for one; raise maxQueuedMessages or have the client open the GET stream`);
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
    const why = reason ?? new HttpServerError(HttpFaultCode.SessionClosed, "the session was closed");
    for (const exchange of exchanges) exchange.abort(why);
    exchanges.clear();
    for (const stream of [...streams.values()]) stream.close();
    standalone?.close();
    queue.length = 0;
    if (created.length > createdHead && config.settings.store) {
      const ids = created.slice(createdHead);
      created = [];
      createdHead = 0;
      try {
        await config.settings.store.forget(ids);
      } catch (cause) {
        config.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, "event store forget failed", { cause }));
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
    headers: config.id === undefined ? {} : { [HttpHeader.SessionId]: config.id },
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
    },
    untrack(exchange) {
      exchanges.delete(exchange);
      lastSeen = config.now();
    },
    openStream,
    owns: (streamId) => streamId.startsWith(`${config.streamPrefix}.`),
    live: (streamId) => (standalone?.id === streamId ? standalone : streams.get(streamId)),
    listen(connection, prime, lastEventId) {
      if (!standalone) {
        const id = standaloneId ?? `${config.streamPrefix}.${streamCount++}`;
        if (config.settings.store && sharing === undefined) remember(id);
        standalone = createSseStream(id, config.settings, {
          lost: () => session.touch(),
          done: () => undefined,
          fault: (error) => config.fault(error),
          outgoing: sharing === undefined ? undefined : tag,
        });
      }
      const current = standalone;
      if (lastEventId === undefined) current.attach(connection, prime);
      else current.resume(connection, lastEventId);
      sharing?.holding(true);
      connection.onClose(() => {
        session.touch();
        if (!current.connected) sharing?.holding(false);
      });
      const waiting = queue.splice(0, queue.length);
      for (const message of waiting) void current.write(message).catch((error: unknown) => config.fault(error as Error));
    },
    standaloneId,
    forwarded(messages) {
      if (closed) return;
      const target = standalone;
      if (target && (target.connected || target.resumable)) {
        for (const message of messages) void target.write(message).catch((error: unknown) => config.fault(error as Error));
        return;
      }
      if (queue.length + messages.length > config.maxQueued) {
        config.fault(new HttpServerError(HttpFaultCode.QueueFull, `${messages.length} forwarded message(s) dropped: no GET stream is open and ${config.maxQueued} messages already wait`));
        return;
      }
      queue.push(...messages);
    },
    claim(message) {
      if (isRequest(message) || !("id" in message) || typeof message.id !== "string") return undefined;
      const original = tagged.get(message.id);
      if (original === undefined) return undefined;
      tagged.delete(message.id);
      return { ...message, id: original } as JsonRpcMessage;
    },
    tagOutbound: tag,
    close,
  };
  return session;
}
