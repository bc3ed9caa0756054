/**
 * The request context every handler receives (DESIGN.md section 2): the request's signal,
 * session, principal, `_meta`, and ways to talk to the client about this request.
 *
 * Per-request protocol context: `protocolVersion` and `clientCapabilities` are read from the
 * request's `_meta` first (`io.modelcontextprotocol/protocolVersion`,
 * `io.modelcontextprotocol/clientCapabilities`, the 2026-07-28 stateless revision) and fall
 * back to what the session negotiated at `initialize`. Handlers that read them from the
 * context work unchanged when requests start carrying their whole context.
 */
import type { JsonRpcId, JsonRpcParams, Principal, RequestOptions } from "@proto/jsonrpc";
import type { ClientCapabilities, Implementation, JsonObject, RequestMeta } from "@proto/mcp-protocol";
import type { FeatureContext } from "./context-features";
import type { ServerSession } from "./session-types";

/** The base context: what the core provides to every handler. */
export interface BaseRequestContext {
  /** The JSON-RPC id of the request being handled. */
  readonly requestId: JsonRpcId;
  /** The method being handled. */
  readonly method: string;
  /**
   * Aborted when the client cancels (`notifications/cancelled`), when the request's stream
   * goes away, or when the session closes. After it fires, whatever the handler returns is
   * dropped: no response is sent for a cancelled request.
   */
  readonly signal: AbortSignal;
  /** The session the request arrived on (client info, negotiated version, capabilities). */
  readonly session: ServerSession;
  /** The authenticated caller, as the transport reported it (`ExchangeInfo.principal`). */
  readonly principal: Principal | undefined;
  /** The request's `_meta` (empty object when it sent none). */
  readonly meta: RequestMeta;
  /** The protocol version this request runs under: its `_meta` version, else the session's. */
  readonly protocolVersion: string;
  /** The client's capabilities for this request: from its `_meta`, else from `initialize`. */
  readonly clientCapabilities: ClientCapabilities;
  /**
   * The client's settings for extension `id` when it is negotiated for this request, else
   * undefined: under 2026-07-28 from this request's `clientCapabilities.extensions` (each
   * request negotiates on its own), under 2025-11-25 what the session negotiated at
   * `initialize` (as `session.extension(id)`). Gate extension features on this.
   */
  extension(id: string): JsonObject | undefined;
  /** The client's self-reported identity, for display and logs only (never for security decisions). */
  readonly clientInfo: Implementation | undefined;
  /**
   * The task this call runs as, when it runs as one: a `tools/call` of a tool whose
   * `execution.taskSupport` is `"optional"` or `"required"`, made as a task (2025-11-25
   * `params.task`) or by a client that declared the tasks extension (2026-07-28). Then `signal`
   * is the task's (aborted by `tasks/cancel` or when its TTL elapses), requests to the client
   * become the task's input requests, and `progress()` messages become its `statusMessage`.
   */
  readonly taskId: string | undefined;
  /**
   * For a tool registered with `taskStart: "handler"`: turns the call into a task now (its
   * input so far was asked the plain way, as rounds under 2026-07-28), answering the request
   * with the task. Resolves true when the call runs as a task, false when it cannot (the client
   * did not ask for one, or the tool does not support tasks). Elsewhere it resolves whether the
   * call already is a task.
   */
  startTask(): Promise<boolean>;
  /** Sends a notification to the client, related to this request (it travels on this request's stream). */
  notify(method: string, params?: JsonRpcParams): Promise<void>;
  /** Sends a request to the client, related to this request, and resolves with its result. */
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
}

/** The context of a request handler: the core's members plus those the built-in features add (`log`, `progress`, ...). */
export interface RequestContext extends BaseRequestContext, FeatureContext {}
