/**
 * Building a request's context: the per-request protocol context (from `_meta`, else the
 * session), then the members each feature installs.
 */
import type { RequestContext as PeerRequestContext } from "@proto/jsonrpc";
import type { ClientCapabilities, Implementation, RequestMeta } from "@proto/mcp-protocol";
import { MetaKey } from "@proto/mcp-protocol";
import type { BaseRequestContext, RequestContext } from "./context";
import type { ServerCore } from "./core";
import type { SessionState } from "./session-state";
import type { ServerSession } from "./session-types";

const NO_META: RequestMeta = Object.freeze({});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request's `_meta`, or a frozen empty object. */
export function metaOf(params: unknown): RequestMeta {
  if (!isRecord(params)) return NO_META;
  const meta = params._meta;
  return isRecord(meta) ? (meta as RequestMeta) : NO_META;
}

/** Builds the context of one request. `version` is the request's effective protocol version. */
export function createContext(
  core: ServerCore,
  state: SessionState,
  view: ServerSession,
  rc: PeerRequestContext,
  meta: RequestMeta,
  version: string,
): RequestContext {
  const caps = meta[MetaKey.ClientCapabilities];
  const info = meta[MetaKey.ClientInfo];
  const ctx: BaseRequestContext = {
    requestId: rc.id,
    method: rc.method,
    get signal() {
      return rc.signal;
    },
    session: view,
    principal: rc.info.principal,
    meta,
    protocolVersion: version,
    clientCapabilities: isRecord(caps) ? (caps as ClientCapabilities) : state.clientCapabilities,
    clientInfo: isRecord(info) ? (info as unknown as Implementation) : state.clientInfo,
    notify: (method, params) => rc.notify(method, params),
    request: (method, params, options) => rc.request(method, params, options),
  };
  for (const feature of core.features) {
    if (feature.extendContext !== undefined) feature.extendContext(ctx, state.features.get(feature));
  }
  return ctx as RequestContext;
}
