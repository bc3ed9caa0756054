/**
 * The MCP Apps server extension (SEP-1865 "Client<>Server Capability Negotiation"), built
 * on the public hooks of `@proto/mcp-server` only: negotiation, per-session decoration of the
 * lists (`apps-decorators.ts`), and interceptors that gate `ui://` reads, refuse a tool list
 * with broken links, and keep app-only tools away from sessions without UI.
 */
import { ErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { JsonObject, ListResourcesResult, Resource } from "@proto/mcp-protocol";
import type { ExtensionInterceptor, ServerExtension } from "@proto/mcp-server";
import { createDecorators } from "./apps-decorators";
import type { AppsState } from "./apps-state";
import { isServed } from "./apps-state";
import { isUiUri, UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { createBrokenLinkError, createNotNegotiatedError, createNotRegisteredError } from "./errors";
import { describeProblems } from "./links";
import { isAppOnly } from "./tool-meta";

function param(params: JsonRpcParams | undefined, key: string): unknown {
  return params !== undefined && !Array.isArray(params) ? (params as Record<string, unknown>)[key] : undefined;
}

/** `resources/read` and `resources/subscribe` of a view: registered through apps, and negotiated. */
function guard(state: AppsState, method: string): ExtensionInterceptor {
  return (params, ctx, next) => {
    const uri = param(params, "uri");
    if (!isUiUri(uri)) return next();
    if (!state.views.has(uri)) throw createNotRegisteredError(uri);
    if (!isServed(state, ctx.session)) throw createNotNegotiatedError(uri, method);
    return next();
  };
}

function createInterceptors(state: AppsState): { readonly [method: string]: ExtensionInterceptor } {
  return {
    "tools/list": async (_params, ctx, next) => {
      const result = await next(); // decorating first records the links of the tools listed now
      if (state.links.size === 0 || !isServed(state, ctx.session)) return result;
      const report = state.report();
      if (!report.ok) throw createBrokenLinkError(report.problems);
      return result;
    },
    "tools/call": (params, ctx, next) => {
      const name = param(params, "name");
      if (typeof name === "string" && !isServed(state, ctx.session) && isAppOnly(state.links.get(name))) {
        throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}; call tools/list for the available tools`);
      }
      return next();
    },
    // A safety net for entries the decorators do not see (resources listed by templates).
    "resources/list": async (_params, ctx, next) => {
      const result = (await next()) as ListResourcesResult;
      const keep = (r: Resource): boolean => !isUiUri(r?.uri) || (state.views.has(r.uri) && isServed(state, ctx.session));
      if (!Array.isArray(result?.resources) || result.resources.every(keep)) return result;
      return { ...result, resources: result.resources.filter(keep) };
    },
    "resources/read": guard(state, "resources/read"),
    "resources/subscribe": guard(state, "resources/subscribe"),
  };
}

/** Creates the extension `createApps` passes to `server.use()`. */
export function createAppsExtension(state: AppsState): ServerExtension {
  return {
    id: UI_EXTENSION_ID,
    settings: (client: JsonObject) => {
      const types = client.mimeTypes;
      return Array.isArray(types) && types.includes(UI_MIME_TYPE) ? { mimeTypes: [UI_MIME_TYPE] } : undefined;
    },
    decorate: createDecorators(state),
    intercept: createInterceptors(state),
    initialized: () => {
      const report = state.report();
      if (report.ok) return;
      const key = report.problems.map((p) => `${p.tool}\u0000${p.resourceUri ?? ""}\u0000${p.problem}`).join("\u0001");
      state.warnOnce(`links:${key}`, `MCP Apps: ${report.problems.length} tool link(s) cannot be served; UI sessions get an error from tools/list until they are repaired:\n${describeProblems(report.problems)}`, report.problems);
    },
  };
}
