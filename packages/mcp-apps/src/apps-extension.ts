/**
 * The MCP Apps server extension (SEP-1865 "Client<>Server Capability Negotiation"), built
 * on the public hooks of `@proto/mcp-server` only: negotiation, per-session decoration of the
 * lists (`apps-decorators.ts`), registration checks (`apps-registry.ts`), and interceptors
 * that gate `ui://` reads, refuse a tool list with broken links, and keep app-only tools away
 * from sessions without UI. What is registered is read from the server's registry, never
 * mirrored.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { JsonObject, ListResourcesResult, Resource } from "@proto/mcp-protocol";
import type { ExtensionInterceptor, ServerExtension } from "@proto/mcp-server";
import { createDecorators } from "./apps-decorators";
import { checkEntry, checkExisting, viewChanged } from "./apps-registry";
import type { AppsState } from "./apps-state";
import { isServed, isView, registryOf } from "./apps-state";
import { isUiUri, UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { createBrokenLinkError, createNotNegotiatedError, createNotRegisteredError } from "./errors";
import type { LinkReport } from "./links";
import { describeProblems } from "./links";
import { isAppOnly, readToolUi } from "./tool-meta";

function param(params: JsonRpcParams | undefined, key: string): unknown {
  return params !== undefined && !Array.isArray(params) ? (params as Record<string, unknown>)[key] : undefined;
}

/** `resources/read` and `resources/subscribe` of a view: registered through apps, and negotiated. */
function guard(state: AppsState, method: string): ExtensionInterceptor {
  return (params, ctx, next) => {
    const uri = param(params, "uri");
    if (!isUiUri(uri)) return next();
    if (!isView(state, uri)) throw createNotRegisteredError(uri);
    if (!isServed(state, ctx)) throw createNotNegotiatedError(uri, method);
    return next();
  };
}

function createInterceptors(state: AppsState, report: () => LinkReport): { readonly [method: string]: ExtensionInterceptor } {
  return {
    "tools/list": (_params, ctx, next) => {
      if (!isServed(state, ctx)) return next();
      const links = report();
      if (!links.ok) throw createBrokenLinkError(links.problems);
      return next();
    },
    "tools/call": (params, ctx, next) => {
      const name = param(params, "name");
      if (typeof name === "string" && !isServed(state, ctx) && isAppOnly(readToolUi(registryOf(state).tool(name)?._meta))) {
        throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 200)}; call tools/list for the available tools`);
      }
      return next();
    },
    // A safety net for entries the decorators do not see (resources listed by templates).
    "resources/list": async (_params, ctx, next) => {
      const result = (await next()) as ListResourcesResult;
      const keep = (r: Resource): boolean => !isUiUri(r?.uri) || (isView(state, r.uri) && isServed(state, ctx));
      if (!Array.isArray(result?.resources) || result.resources.every(keep)) return result;
      return { ...result, resources: result.resources.filter(keep) };
    },
    "resources/read": guard(state, "resources/read"),
    "resources/subscribe": guard(state, "resources/subscribe"),
  };
}

/** Creates the extension `createApps` passes to `server.use()`; `report` is the link report of the tools served now. */
export function createAppsExtension(state: AppsState, report: () => LinkReport): ServerExtension {
  return {
    id: UI_EXTENSION_ID,
    settings: (client: JsonObject) => {
      const types = client.mimeTypes;
      return Array.isArray(types) && types.includes(UI_MIME_TYPE) ? { mimeTypes: [UI_MIME_TYPE] } : undefined;
    },
    decorate: createDecorators(state),
    intercept: createInterceptors(state, report),
    installed: (host) => {
      checkExisting(state, host.registry);
      state.host = host;
    },
    registering: (entry) => checkEntry(state, entry),
    registered: (entry) => viewChanged(state, entry),
    removed: (entry) => viewChanged(state, entry),
    initialized: () => {
      const links = report();
      if (links.ok) return;
      const key = links.problems.map((p) => `${p.tool}\u0000${p.resourceUri ?? ""}\u0000${p.problem}`).join("\u0001");
      state.warnOnce(`links:${key}`, `MCP Apps: ${links.problems.length} tool link(s) cannot be served; UI sessions get an error from tools/list until they are repaired:\n${describeProblems(links.problems)}`, links.problems);
    },
  };
}
