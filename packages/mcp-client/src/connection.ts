/**
 * The client's connection lifecycle: explicit or lazy connect, a connect timeout, bounded
 * retries with backoff through a transport factory, reconnect after a drop, and the events
 * and observer calls of each step. At most one connect runs at a time; callers share it.
 */
import { hasErrorBrand, JsonRpcError, RequestError, type Transport } from "@proto/jsonrpc";
import type { Emitter } from "./emitter";
import type { ClientObserver, ConnectEvent } from "./observer";
import type { Session } from "./session";
import type { ConnectionEvents } from "./events";
import { retry, type BackoffOptions } from "./backoff";
import { ClientFaultCode, McpClientError, isMcpClientError } from "./errors";
import { safeCall } from "./observer";

/** Where the client stands. */
export type ConnectionState = "idle" | "connecting" | "connected" | "disconnected" | "closed";

/** Creates a fresh transport for each connect attempt. */
export type TransportFactory = () => Transport | Promise<Transport>;

/** How a connection is made. */
export interface ConnectionConfig {
  readonly factory: TransportFactory | undefined;
  readonly connectTimeoutMs: number;
  /** Retries after a failed attempt (factory only) and the backoff between them. */
  readonly retry: BackoffOptions & { readonly retries: number };
  readonly open: (transport: Transport, signal: AbortSignal) => Promise<Session>;
  /** Runs once a session is up, before the events (re-subscribe, restore the log level). */
  readonly ready: (session: Session, reconnect: boolean) => void;
  readonly emitter: Emitter<ConnectionEvents>;
  readonly observer: ClientObserver | undefined;
  readonly report: (error: unknown, what: string) => void;
}

/** The lifecycle of one client. */
export interface Connection {
  readonly state: ConnectionState;
  readonly session: Session | undefined;
  /** Connects with `transport`, or through the factory when none is given. */
  connect(transport?: Transport): Promise<Session>;
  /** The current session, connecting lazily (through the factory) when there is none. */
  ensure(signal?: AbortSignal): Promise<Session>;
  close(): Promise<void>;
}

/**
 * The OAuth refusal anywhere in `error`'s cause chain (an `OAuthError` of `@proto/mcp-client/oauth`,
 * recognised by its brand, so that separately bundled copies match and this module need not load
 * the OAuth code), except an abort.
 */
function oauthRefusal(error: unknown): Error | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 8; at = at.cause, depth++) {
    if (hasErrorBrand(at, "@proto/mcp-client:OAuthError") && (at as Error & { code?: unknown }).code !== "ABORTED") return at;
  }
  return undefined;
}

/** Not retried: a version mismatch, a JSON-RPC error to `initialize`, an OAuth refusal (a retry would reopen the login). */
function isFatal(error: unknown): boolean {
  return isMcpClientError(error, ClientFaultCode.UnsupportedVersion) || error instanceof JsonRpcError || oauthRefusal(error) !== undefined;
}

function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined, what: string): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new RequestError("ABORTED", what, `"${what}" was aborted while connecting`, { cause: signal.reason }));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(new RequestError("ABORTED", what, `"${what}" was aborted while connecting`, { cause: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Creates the lifecycle manager of one client. */
export function createConnection(config: ConnectionConfig): Connection {
  let state: ConnectionState = "idle";
  let session: Session | undefined;
  let pending: Promise<Session> | undefined;
  let everConnected = false;
  const closing = new AbortController();

  async function attempt(getTransport: () => Transport | Promise<Transport>, n: number, retries: number, lazy: boolean): Promise<Session> {
    const began = performance.now();
    const aborter = new AbortController();
    const stop = (): void => aborter.abort(closing.signal.reason);
    closing.signal.addEventListener("abort", stop, { once: true });
    const timer = setTimeout(() => aborter.abort(new McpClientError(ClientFaultCode.ConnectTimeout,
      `The server did not complete the MCP handshake within ${config.connectTimeoutMs} ms (connectTimeoutMs); check that it is running and speaks MCP`)), config.connectTimeoutMs);
    const reconnect = everConnected;
    try {
      const creating = Promise.resolve().then(getTransport);
      const transport = await raceSignal(creating, aborter.signal, "connect").catch((e: unknown) => {
        // A transport the factory delivers after the timeout is closed, never leaked.
        if (aborter.signal.aborted) {
          creating.then((late) => late.close(), () => {});
          throw aborter.signal.reason;
        }
        throw e;
      });
      const opened = await config.open(transport, aborter.signal);
      const { info, protocolVersion } = opened.server;
      safeCall((e: ConnectEvent) => config.observer?.connect?.(e), { attempt: n, reconnect, lazy, durationMs: performance.now() - began, outcome: "ok", serverInfo: info, protocolVersion }, (e) => config.report(e, "observer.connect"));
      return opened;
    } catch (error) {
      const willRetry = n <= retries && !isFatal(error) && !closing.signal.aborted;
      safeCall((e: ConnectEvent) => config.observer?.connect?.(e), { attempt: n, reconnect, lazy, durationMs: performance.now() - began, outcome: "error", error }, (e) => config.report(e, "observer.connect"));
      config.emitter.emit("connectFailed", { error, attempt: n, willRetry });
      throw error;
    } finally {
      clearTimeout(timer);
      closing.signal.removeEventListener("abort", stop);
    }
  }

  function adopt(next: Session): Session {
    const reconnect = everConnected;
    session = next;
    state = "connected";
    everConnected = true;
    void next.peer.closed.then((reason) => {
      if (session !== next) return;
      session = undefined;
      state = "disconnected";
      config.emitter.emit("disconnected", { reason, expected: false });
    });
    config.ready(next, reconnect);
    config.emitter.emit(reconnect ? "reconnected" : "connected", { server: next.server });
    return next;
  }

  function start(getTransport: () => Transport | Promise<Transport>, retries: number, lazy: boolean): Promise<Session> {
    state = "connecting";
    const run = retry((n) => attempt(getTransport, n, retries, lazy), { ...config.retry, retries, signal: closing.signal, shouldRetry: (e) => !isFatal(e) });
    pending = run.then((next) => {
      // close() ran after the handshake finished but before the session was adopted: end it
      if (closing.signal.aborted) {
        return next.peer.close().then(() => {
          throw new McpClientError(ClientFaultCode.Closed, "The client was closed while connecting");
        });
      }
      return adopt(next);
    }, (error: unknown) => {
      if (state !== "closed") state = "disconnected";
      if (closing.signal.aborted) throw new McpClientError(ClientFaultCode.Closed, "The client was closed while connecting");
      if (isMcpClientError(error) || error instanceof JsonRpcError) throw error;
      const refusal = oauthRefusal(error);
      if (refusal !== undefined) throw refusal;
      const detail = error instanceof Error ? error.message : String(error);
      throw new McpClientError(ClientFaultCode.ConnectFailed, `Could not connect to the MCP server${retries > 0 ? ` after ${retries + 1} attempts` : ""}: ${detail}`, { cause: error });
    }).finally(() => {
      pending = undefined;
    });
    return pending;
  }

  function closedError(): McpClientError {
    return new McpClientError(ClientFaultCode.Closed, "The client is closed; create a new client to talk to the server again");
  }

  return {
    get state() {
      return state;
    },
    get session() {
      return session;
    },
    connect(transport) {
      if (state === "closed") return Promise.reject(closedError());
      if (transport !== undefined && (state === "connected" || state === "connecting")) {
        return Promise.reject(new TypeError("connect(transport): the client is already connected or connecting; close() it first, or create another client"));
      }
      if (session !== undefined) return Promise.resolve(session);
      if (pending !== undefined) return pending;
      if (transport !== undefined) return start(() => transport, 0, false);
      const factory = config.factory;
      if (factory === undefined) return Promise.reject(new TypeError("connect(): pass a transport, or give createClient a `transport` factory"));
      return start(factory, config.retry.retries, false);
    },
    ensure(signal) {
      if (state === "closed") return Promise.reject(closedError());
      if (session !== undefined) return Promise.resolve(session);
      if (pending !== undefined) return raceSignal(pending, signal, "connect");
      const factory = config.factory;
      if (factory === undefined) {
        return Promise.reject(new McpClientError(ClientFaultCode.NotConnected,
          state === "idle" ? "The client is not connected; call connect(transport) first, or give createClient a `transport` factory to connect on first use"
            : "The connection to the server was lost; give createClient a `transport` factory so the client can reconnect, or create a new client"));
      }
      return raceSignal(start(factory, config.retry.retries, true), signal, "connect");
    },
    async close() {
      if (state === "closed") return;
      state = "closed";
      closing.abort(closedError());
      // a connect in flight ends first (its transport and any session it opened are closed)
      await pending?.catch(() => undefined);
      const current = session;
      session = undefined;
      if (current !== undefined) {
        await current.peer.close();
        config.emitter.emit("disconnected", { reason: undefined, expected: true });
      }
    },
  };
}
