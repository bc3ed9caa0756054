/**
 * Serving one request that carries the protocol claim (MCP 2026-07-28; the order follows the
 * checklist's dual-era ladder, the same for every method and on every transport): the envelope
 * -32602; the version -32022 with `data: { supported, requested }`; removed methods (`ping`,
 * `initialize`, ...) -32601; a method behind a capability the server does not advertise -32601; then the handler, with a context built from the envelope alone
 * (nothing from the session or earlier requests: extensions are negotiated from this
 * request's `clientCapabilities.extensions`), per-request logging, multi-round input on
 * `tools/call` / `prompts/get` / `resources/read`, and the result stamped for the modern wire.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, RequestContext as PeerRequestContext, RequestOptions } from "@proto/jsonrpc";
import {
  createUnsupportedVersionError,
  INPUT_REQUIRED_METHODS,
  LOGGING_LEVELS,
  McpHttpHeader,
  NotificationMethod,
  parseRequestEnvelope,
  REMOVED_MODERN_METHODS,
  RequestMethod,
} from "@proto/mcp-protocol";
import type { LoggingLevel, ServerCapabilities } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { ServerCore } from "../core";
import { logMessage } from "../logging/logging";
import { negotiateExtensions } from "../extension-negotiate";
import { metaOf, peerContextOf, setNegotiated } from "../session-context";
import type { ModernHooks } from "../session-context";
import type { SessionState } from "../session-state";
import type { ServerSession } from "../session-types";
import { modernDiscover } from "./discover";
import { encodeModernError, encodeModernResult } from "./encode";
import { runRound } from "./input-rounds";
import type { InputRound, RoundHost } from "./input-rounds";
import { checkParamHeaders } from "./param-headers";

const REMOVED = new Set(REMOVED_MODERN_METHODS);
const ROUNDS = new Set(INPUT_REQUIRED_METHODS);

function methodNotFound(method: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** The capability a method belongs to (undefined: none to advertise). */
function capabilityOf(method: string): keyof ServerCapabilities | undefined {
  if (method.startsWith("tools/")) return "tools";
  if (method.startsWith("prompts/")) return "prompts";
  if (method.startsWith("resources/")) return "resources";
  if (method === RequestMethod.CompletionComplete) return "completions";
  return undefined;
}

/**
 * The context hooks of one modern request: `ctx.log` only when the envelope set `logLevel`, at
 * or above it, on this request's stream; `ctx.request` through the request's round, if it has one.
 */
class Hooks implements ModernHooks, RoundHost {
  round: InputRound | undefined = undefined;
  private readonly threshold: number;

  constructor(level: LoggingLevel | undefined) {
    this.threshold = level === undefined ? LOGGING_LEVELS.length : LOGGING_LEVELS.indexOf(level);
  }

  log(ctx: RequestContext, at: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    const index = LOGGING_LEVELS.indexOf(at);
    if (index < 0) return Promise.reject(new TypeError(`log(): level ${JSON.stringify(at)} is not one of ${LOGGING_LEVELS.join(", ")}`));
    // a modern request's log messages travel with its answer: none once it was answered
    if (index < this.threshold || peerContextOf(ctx).finished === true) return Promise.resolve();
    return ctx.notify(NotificationMethod.Message, logMessage(at, data, logger) as unknown as JsonRpcParams).catch(() => undefined);
  }

  request(_ctx: RequestContext, method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown> {
    if (this.round === undefined) {
      return Promise.reject(new TypeError(`ctx.request("${method}"): under 2026-07-28 only tools/call, prompts/get and resources/read may ask the client for input`));
    }
    return this.round.request(method, params, options);
  }
}

/** What one modern request needs from its session. */
export interface ModernCall {
  readonly core: ServerCore;
  readonly state: SessionState;
  readonly view: ServerSession;
  readonly rc: PeerRequestContext;
  /** Runs the route of `method` (with the extensions' interceptors). */
  readonly run: (method: string, params: JsonRpcParams | undefined, ctx: RequestContext, own?: (params: JsonRpcParams | undefined) => unknown) => unknown;
}

/** Serves the request: its value (synchronous when the handler is) or a promise; a fault throws. */
function serve(call: ModernCall, method: string, params: JsonRpcParams | undefined): unknown {
  const { core, rc } = call;
  // one order for every method, the HTTP ladder's: envelope, version, then the method
  const envelope = parseRequestEnvelope(params);
  const modern = core.stateless;
  if (!modern.versions.includes(envelope.protocolVersion)) throw createUnsupportedVersionError(envelope.protocolVersion, modern.versions);
  if (REMOVED.has(method)) throw methodNotFound(method);
  if (method === RequestMethod.Discover) return modernDiscover(core);
  if (method !== RequestMethod.SubscriptionsListen) {
    const capability = capabilityOf(method);
    if (!core.routes.has(method) || (capability !== undefined && !core.advertises(capability))) throw methodNotFound(method);
  }
  const headers = rc.info.headers;
  if (method === RequestMethod.ToolsCall && headers !== undefined && headers[McpHttpHeader.Method] !== undefined) {
    const p = params as { name?: unknown; arguments?: unknown };
    const schema = typeof p.name === "string" ? core.stateless.toolSchema(p.name) : undefined;
    if (schema !== undefined) checkParamHeaders(schema, p.arguments, headers);
  }
  const hooks = new Hooks(envelope.logLevel);
  const ctx = core.createContext(call.state, call.view, rc, metaOf(params), envelope.protocolVersion, hooks);
  if (core.extensions.length > 0) setNegotiated(ctx, negotiateExtensions(core.extensions, ctx.clientCapabilities.extensions, call.view, core.logger));
  // Through the extensions' interceptors too: their next() settles when the stream ends.
  if (method === RequestMethod.SubscriptionsListen) return call.run(method, params, ctx, (p) => modern.listens.listen(p, ctx, core.capabilities(), rc.info.transport !== "http"));
  if (!ROUNDS.has(method)) return call.run(method, params, ctx);
  return runRound({ method, params, ctx, principal: rc.info.principal, codec: modern.requestState, run: (c) => call.run(method, params, c) }, hooks);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** The wire result of `result`: stamped, except discover (already in its shape) and a cancelled request's nothing. */
function finish(call: ModernCall, method: string, result: unknown): unknown {
  if (method === RequestMethod.Discover) return result;
  if (result === undefined && call.rc.signal.aborted) return result;
  return encodeModernResult(result, call.core.stateless.cacheHints(method), call.core.info);
}

function fail(error: unknown): never {
  throw encodeModernError(error);
}

/**
 * Serves a request that has the protocol claim: the wire result, synchronously when the
 * handler answers synchronously (as the session-era path, no promise per call), else a
 * promise; a fault throws (or rejects with) the wire error.
 */
export function serveModern(call: ModernCall, method: string, params: JsonRpcParams | undefined): unknown {
  try {
    const result = serve(call, method, params);
    if (!isThenable(result)) return finish(call, method, result);
    // one reaction: a stamp that throws is failed as a rejection of the handler is
    return Promise.resolve(result).then((value) => {
      try {
        return finish(call, method, value);
      } catch (error) {
        return fail(error);
      }
    }, fail);
  } catch (error) {
    return fail(error);
  }
}
