/**
 * Serving one request that carries the protocol claim (MCP 2026-07-28; the order follows the
 * checklist's dual-era ladder): removed methods -32601; the envelope -32602; the version
 * -32022 with `data: { supported, requested }`; a method behind a capability the server does
 * not advertise -32601; then the handler, with a context built from the envelope alone
 * (nothing from the session or earlier requests: extensions are negotiated from this
 * request's `clientCapabilities.extensions`), per-request logging, multi-round input on
 * `tools/call` / `prompts/get` / `resources/read`, and the result stamped for the modern wire.
 */
import { ErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, RequestContext as PeerRequestContext } from "@proto/jsonrpc";
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
import { metaOf, setNegotiated } from "../session-context";
import type { SessionState } from "../session-state";
import type { ServerSession } from "../session-types";
import { modernDiscover } from "./discover";
import { encodeModernError, encodeModernResult } from "./encode";
import { runRound } from "./input-rounds";
import { checkParamHeaders } from "./param-headers";

const REMOVED = new Set(REMOVED_MODERN_METHODS);
const ROUNDS = new Set(INPUT_REQUIRED_METHODS);

function methodNotFound(method: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** True when the server advertises the capability `method` belongs to. */
function advertised(method: string, caps: ServerCapabilities): boolean {
  if (method.startsWith("tools/")) return caps.tools !== undefined;
  if (method.startsWith("prompts/")) return caps.prompts !== undefined;
  if (method.startsWith("resources/")) return caps.resources !== undefined;
  if (method === RequestMethod.CompletionComplete) return caps.completions !== undefined;
  return true;
}

/** Per-request logging: only when the envelope set `logLevel`, at or above it, on this request's stream. */
function installLog(ctx: RequestContext, level: LoggingLevel | undefined): void {
  const threshold = level === undefined ? LOGGING_LEVELS.length : LOGGING_LEVELS.indexOf(level);
  (ctx as { log: RequestContext["log"] }).log = (at, data, logger) => {
    const index = LOGGING_LEVELS.indexOf(at);
    if (index < 0) return Promise.reject(new TypeError(`log(): level ${JSON.stringify(at)} is not one of ${LOGGING_LEVELS.join(", ")}`));
    if (index < threshold) return Promise.resolve();
    return ctx.notify(NotificationMethod.Message, logMessage(at, data, logger) as unknown as JsonRpcParams).catch(() => undefined);
  };
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

async function serve(call: ModernCall, method: string, params: JsonRpcParams | undefined): Promise<unknown> {
  const { core, rc } = call;
  if (REMOVED.has(method)) throw methodNotFound(method);
  const envelope = parseRequestEnvelope(params);
  const modern = core.stateless;
  if (!modern.versions.includes(envelope.protocolVersion)) throw createUnsupportedVersionError(envelope.protocolVersion, modern.versions);
  if (method === RequestMethod.Discover) return modernDiscover(core);
  const caps = core.capabilities();
  if ((method !== RequestMethod.SubscriptionsListen && !core.routes.has(method)) || !advertised(method, caps)) throw methodNotFound(method);
  const headers = rc.info.headers;
  if (method === RequestMethod.ToolsCall && headers !== undefined && headers[McpHttpHeader.Method] !== undefined) {
    const p = params as { name?: unknown; arguments?: unknown };
    const schema = typeof p.name === "string" ? core.stateless.toolSchema(p.name) : undefined;
    if (schema !== undefined) checkParamHeaders(schema, p.arguments, headers);
  }
  const ctx = core.createContext(call.state, call.view, rc, metaOf(params), envelope.protocolVersion);
  if (core.extensions.length > 0) setNegotiated(ctx, negotiateExtensions(core.extensions, ctx.clientCapabilities.extensions, call.view, core.logger));
  installLog(ctx, envelope.logLevel);
  // Through the extensions' interceptors too: their next() settles when the stream ends.
  if (method === RequestMethod.SubscriptionsListen) return call.run(method, params, ctx, (p) => modern.listens.listen(p, ctx, caps, rc.info.transport !== "http"));
  if (!ROUNDS.has(method)) {
    (ctx as { request: RequestContext["request"] }).request = (m) =>
      Promise.reject(new TypeError(`ctx.request("${m}"): under 2026-07-28 only tools/call, prompts/get and resources/read may ask the client for input`));
    return call.run(method, params, ctx);
  }
  return runRound({ method, params, ctx, principal: rc.info.principal, codec: modern.requestState, run: (c) => call.run(method, params, c) });
}

/** Serves a request that has the protocol claim; resolves with the wire result or rejects with the wire error. */
export async function serveModern(call: ModernCall, method: string, params: JsonRpcParams | undefined): Promise<unknown> {
  try {
    const result = await serve(call, method, params);
    if (method === RequestMethod.Discover) return result;
    if (result === undefined && call.rc.signal.aborted) return result;
    return encodeModernResult(result, call.core.stateless.cacheHints(method), call.core.info);
  } catch (error) {
    throw encodeModernError(error);
  }
}
