/**
 * The session of a single-request transport (a stateless Streamable HTTP POST,
 * `SingleRequestTransport`): `server.connect(transport)` recognises one and attaches this
 * instead of a `Peer` and a full session. It serves its one request under the stateless
 * revision (`stateless/serve.ts`) from what the server shares (routes, interceptors, context
 * prototype, responder); nothing is registered per method, a feature's per-session state is
 * created only when a handler uses it, and the session id only when read. It is the session's
 * state itself (one object) and lists in `server.sessions()` until its transport closes.
 */
import { abortSingleRequest, JsonRpcErrorCode, JsonRpcError, JsonRpcFaultCode, RequestError } from "@proto/jsonrpc";
import type {
  Exchange,
  JsonRpcParams,
  JsonRpcPayload,
  JsonRpcRequest,
  RequestContext as PeerRequestContext,
  RequestOptions,
  SingleRequestOwner,
  SingleResponder,
  Transport,
  TransportError,
  TransportSink,
} from "@proto/jsonrpc";
import { hasProtocolClaim } from "@proto/mcp-protocol";
import type { ClientCapabilities, Implementation, JsonObject, ServerCapabilities } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { ServerCore } from "./core";
import type { NegotiatedExtensions } from "./extension-negotiate";
import { NO_EXTENSIONS } from "./extension-negotiate";
import type { AnyFeature } from "./feature";
import type { PendingSession } from "./session";
import { runRoute } from "./session";
import type { SessionState } from "./session-state";
import type { ConnectOptions, ServerSession } from "./session-types";
import type { ModernCall } from "./stateless/serve";
import { serveModern } from "./stateless/serve";

const EMPTY: ClientCapabilities = Object.freeze({});

/** Feature states created on first use (most requests use none). */
class LazyStates extends Map<AnyFeature, unknown> {
  constructor(private readonly view: ServerSession) {
    super();
  }

  override get(feature: AnyFeature): unknown {
    if (feature.createState !== undefined && !this.has(feature)) this.set(feature, feature.createState(this.view));
    return super.get(feature);
  }
}

/** The `ServerSession` of a single-request session. */
class SingleView implements ServerSession {
  private closedPromise: Promise<Error | undefined> | undefined;
  resolveClosed: ((reason: Error | undefined) => void) | undefined;

  constructor(private readonly session: SingleSession) {}

  get id(): string {
    return this.session.id;
  }
  get initialized(): boolean {
    return this.session.initialized;
  }
  get protocolVersion(): string | undefined {
    return this.session.protocolVersion;
  }
  get clientInfo(): Implementation | undefined {
    return this.session.clientInfo;
  }
  get clientCapabilities(): ClientCapabilities {
    return this.session.clientCapabilities;
  }
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.session.serverCapabilities;
  }
  get closed(): Promise<Error | undefined> {
    if (this.closedPromise === undefined) {
      const session = this.session;
      this.closedPromise = session.isClosed ? Promise.resolve(session.closeReason) : new Promise((resolve) => (this.resolveClosed = resolve));
    }
    return this.closedPromise;
  }

  extension(id: string): JsonObject | undefined {
    return this.session.negotiated.clients.get(id);
  }

  notify(method: string, params?: JsonRpcParams): Promise<void> {
    return this.session.send(method, params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params });
  }

  request(method: string, params?: JsonRpcParams, _options?: RequestOptions): Promise<unknown> {
    // the server API (`server.elicitUrl(session)`) may have registered the session with a feature first
    this.session.createAllStates();
    const message = params === undefined ? { jsonrpc: "2.0" as const, id: 1, method } : { jsonrpc: "2.0" as const, id: 1, method, params };
    return this.session.send(method, message).then(() => {
      throw new RequestError(JsonRpcFaultCode.Closed, method, `"${method}" cannot be answered: this session's transport carries one request and no response back`);
    });
  }

  async ping(options?: RequestOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }

  close(reason?: Error): Promise<void> {
    return this.session.close(reason);
  }
}

/** A single-request session: the transport's sink, the session's state, and the modern call of its request. */
export class SingleSession implements TransportSink, SingleRequestOwner, SessionState, ModernCall, PendingSession {
  isClosed = false;
  closeReason: Error | undefined = undefined;
  readonly idFixed: boolean;
  initialized: boolean;
  readonly assumed: boolean;
  protocolVersion: string | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  serverCapabilities: ServerCapabilities | undefined = undefined;
  negotiated: NegotiatedExtensions = NO_EXTENSIONS;
  readonly view: SingleView;
  /** The request's peer context, once it arrived. */
  rc!: PeerRequestContext;
  private sessionId: string | undefined;
  private states: LazyStates | undefined = undefined;

  constructor(
    readonly core: ServerCore,
    private readonly transport: Transport,
    private readonly respond: SingleResponder,
    options: ConnectOptions,
  ) {
    const assumed = options.initialized;
    this.sessionId = options.sessionId;
    this.idFixed = options.sessionId !== undefined;
    this.initialized = assumed !== undefined;
    this.assumed = assumed !== undefined;
    this.protocolVersion = assumed?.protocolVersion;
    this.clientInfo = assumed?.clientInfo;
    this.clientCapabilities = assumed?.clientCapabilities ?? EMPTY;
    this.view = new SingleView(this);
  }

  get id(): string {
    return (this.sessionId ??= crypto.randomUUID());
  }
  set id(value: string) {
    this.sessionId = value;
  }
  get features(): Map<AnyFeature, unknown> {
    return (this.states ??= new LazyStates(this.view));
  }
  get state(): SessionState {
    return this;
  }

  start(): Promise<void> {
    this.core.opened(this, this.view);
    return this.transport.start(this);
  }

  /** Extensions are looked up per request from the server's routes: nothing to register. */
  addMethod(): void {}

  payload(payload: JsonRpcPayload, exchange: Exchange): void {
    if (this.isClosed) return void exchange.finish?.();
    if (Array.isArray(payload) || !("method" in payload) || !("id" in payload)) {
      this.core.logger.warn("a single-request transport delivered a frame that is not one request; it is dropped");
      return void exchange.finish?.();
    }
    this.respond(payload as JsonRpcRequest, exchange, this);
  }

  serve(request: JsonRpcRequest, rc: PeerRequestContext): unknown {
    if (!hasProtocolClaim(request.params)) {
      throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, "Invalid Request: this transport carries one 2026-07-28 request (the protocol claim in params._meta); open a session for 2025-11-25 requests");
    }
    this.rc = rc;
    return serveModern(this, request.method, request.params);
  }

  run(method: string, params: JsonRpcParams | undefined, ctx: RequestContext, own?: (params: JsonRpcParams | undefined) => unknown): unknown {
    return runRoute(this.core, this, method, params, ctx, own);
  }

  error(error: TransportError): void {
    this.core.logger.warn(`${error.code}: ${error.message}`, error);
  }

  /** The transport closed (either side): the running handler is aborted, the session ends. */
  closed(reason?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = reason;
    if (this.rc !== undefined) abortSingleRequest(this.rc, reason);
    this.view.resolveClosed?.(reason);
    if (this.states === undefined) this.core.forget(this.view);
    else this.core.closed(this, this.view);
  }

  /** Creates every feature's state, as a full session has them, so that closing releases what features keep per session. */
  createAllStates(): void {
    for (const feature of this.core.features) this.features.get(feature);
  }

  /** Sends an unsolicited message through the transport (which has no channel of its own: it rejects). */
  send(method: string, message: JsonRpcPayload): Promise<void> {
    if (this.isClosed) return Promise.reject(new RequestError(JsonRpcFaultCode.Closed, method, `Cannot send "${method}": the session is closed`));
    try {
      return this.transport.send(message);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async close(reason?: Error): Promise<void> {
    this.closed(reason);
    await this.transport.close(reason);
  }
}
