/**
 * One Streamable HTTP session as a `Transport` (one transport = one MCP session, contracts 2):
 * frames of its POSTs reach the sink with their own exchanges, `send` goes to the standalone
 * GET stream (or waits in a bounded queue for one), and `close` ends every stream of the session.
 */
import type { JsonRpcMessage, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { isRequest, TransportError, JsonRpcFaultCode } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import type { PostExchange } from "./exchange";
import { HttpHeader } from "../shared/headers";
import { createOutboundTags } from "./outbound-tags";
import { createRememberedStreams } from "./remembered-streams";
import type { Session, SessionConfig } from "./session-types";
import { createSseStream } from "./stream";
import type { SseStream, StreamHooks, StreamOwner } from "./stream";

export type { Session, SessionConfig, SessionSharing } from "./session-types";

/** Creates a session and its transport. */
export function createSession(config: SessionConfig): Session {
  let sink: TransportSink | undefined;
  let closed = false;
  let lastSeen = config.now();
  let streamCount = 0;
  const exchanges = new Set<PostExchange>();
  const streams = new Map<string, SseStream>();
  let standalone: SseStream | undefined;
  const remembered = config.settings.store === undefined ? undefined : createRememberedStreams(config.settings.store, (id) => streams.has(id) || id === standalone?.id, (error) => config.fault(error));
  const queue: JsonRpcMessage[] = [];
  const { sharing } = config;
  const { tag, claim } = createOutboundTags(sharing);
  const standaloneId = sharing === undefined ? undefined : `${config.streamPrefix}.get`;

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
    if (config.settings.store && sharing === undefined) remembered?.remember(id);
    return stream;
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
    const ids = remembered?.take();
    if (ids !== undefined && config.settings.store) {
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
        if (config.settings.store && sharing === undefined) remembered?.remember(id);
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
    claim,
    tagOutbound: tag,
    close,
  };
  return session;
}
