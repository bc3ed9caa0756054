/**
 * The MCP Apps server extension (SEP-1865 "Client<>Server Capability Negotiation"), built
 * on the public hooks of `@proto/mcp-server` only: negotiation, per-session decoration of
 * `tools/list` and `resources/list`, and interceptors that gate `ui://` reads, refuse a tool
 * list with broken links, and keep app-only tools away from sessions without UI.
 */
import { ErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import type { JsonObject, ListResourcesResult, Resource, ResourceTemplate, Tool } from "@proto/mcp-protocol";
import type { DecorateContext, ServerExtension, ServerSession } from "@proto/mcp-server";
import { isUiUri, UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { createBrokenLinkError, createNotNegotiatedError, createNotRegisteredError } from "./errors";
import type { LinkReport } from "./links";
import { checkLinks, describeProblems } from "./links";
import type { ToolUi } from "./tool-meta";
import { isAppOnly, readToolUi, toToolUiMeta, withoutUiMeta } from "./tool-meta";

/** The registry state the extension reads (owned by `createApps`). */
export interface AppsState {
  readonly views: Map<string, unknown>;
  readonly links: Map<string, ToolUi>;
  readonly serve: "negotiated" | "always";
  readonly appOnlyTools: "list" | "hide";
  readonly logger: Logger;
  /** Logs `message` once per `key`. */
  warnOnce(key: string, message: string, detail?: unknown): void;
  /** Link report of the tools the server serves now. */
  report(): LinkReport;
}

function paramsUri(params: JsonRpcParams | undefined): unknown {
  return params !== undefined && !Array.isArray(params) ? (params as { uri?: unknown }).uri : undefined;
}

function paramsName(params: JsonRpcParams | undefined): unknown {
  return params !== undefined && !Array.isArray(params) ? (params as { name?: unknown }).name : undefined;
}

/** Creates the extension `createApps` passes to `server.use()`. */
export function createAppsExtension(state: AppsState): ServerExtension {
  const served = (session: ServerSession): boolean => state.serve === "always" || session.extension(UI_EXTENSION_ID) !== undefined;

  function decorateTool(tool: Tool, ctx: DecorateContext): Tool | undefined {
    const ui = readToolUi(tool._meta);
    if (ui === undefined) {
      state.links.delete(tool.name);
      return tool;
    }
    state.links.set(tool.name, ui);
    if (!served(ctx.session)) {
      if (isAppOnly(ui)) return undefined;
      const { _meta: _dropped, ...plain } = tool;
      const meta = withoutUiMeta(tool._meta);
      return meta === undefined ? plain : { ...plain, _meta: meta };
    }
    if (isAppOnly(ui) && state.appOnlyTools === "hide") return undefined;
    if (ui.problems.length > 0) return tool; // tools/list answers the link error instead
    return { ...tool, _meta: { ...withoutUiMeta(tool._meta), ui: toToolUiMeta(ui) } };
  }

  function decorateResource(resource: Resource, ctx: DecorateContext): Resource | undefined {
    if (!isUiUri(resource.uri)) return resource;
    if (!state.views.has(resource.uri)) {
      state.warnOnce(`bypass:${resource.uri}`, `MCP Apps: resource ${resource.uri.slice(0, 200)} uses the reserved ui:// scheme but was not registered with apps.resource(); it is neither listed nor readable. Register it with apps.resource().`);
      return undefined;
    }
    return served(ctx.session) ? resource : undefined;
  }

  function decorateTemplate(template: ResourceTemplate): ResourceTemplate | undefined {
    if (!isUiUri(template.uriTemplate)) return template;
    state.warnOnce(`template:${template.uriTemplate}`, `MCP Apps: resource template ${template.uriTemplate.slice(0, 200)} uses the reserved ui:// scheme; views are predeclared resources, so it is neither listed nor readable. Register each view with apps.resource().`);
    return undefined;
  }

  const guard = (method: string) => (params: JsonRpcParams | undefined, ctx: { session: ServerSession }, next: () => Promise<unknown>) => {
    const uri = paramsUri(params);
    if (!isUiUri(uri)) return next();
    if (!state.views.has(uri)) throw createNotRegisteredError(uri);
    if (!served(ctx.session)) throw createNotNegotiatedError(uri, method);
    return next();
  };

  return {
    id: UI_EXTENSION_ID,
    settings: (client: JsonObject) => {
      const types = client.mimeTypes;
      return Array.isArray(types) && types.includes(UI_MIME_TYPE) ? { mimeTypes: [UI_MIME_TYPE] } : undefined;
    },
    decorate: { tools: decorateTool, resources: decorateResource, resourceTemplates: decorateTemplate },
    intercept: {
      "tools/list": async (_params, ctx, next) => {
        const result = await next();
        if (state.links.size === 0 || !served(ctx.session)) return result;
        const report = state.report();
        if (!report.ok) throw createBrokenLinkError(report.problems);
        return result;
      },
      "tools/call": (params, ctx, next) => {
        const name = paramsName(params);
        if (typeof name === "string" && !served(ctx.session) && isAppOnly(state.links.get(name))) {
          throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}; call tools/list for the available tools`);
        }
        return next();
      },
      "resources/list": async (_params, ctx, next) => {
        const result = (await next()) as ListResourcesResult;
        const keep = (r: Resource): boolean => !isUiUri(r?.uri) || (state.views.has(r.uri) && served(ctx.session));
        if (!Array.isArray(result?.resources) || result.resources.every(keep)) return result;
        return { ...result, resources: result.resources.filter(keep) };
      },
      "resources/read": guard("resources/read"),
      "resources/subscribe": guard("resources/subscribe"),
    },
    initialized: () => {
      const report = state.report();
      if (report.ok) return;
      const key = report.problems.map((p) => `${p.tool}\u0000${p.resourceUri ?? ""}\u0000${p.problem}`).join("\u0001");
      state.warnOnce(`links:${key}`, `MCP Apps: ${report.problems.length} tool link(s) cannot be served; UI sessions get an error from tools/list until they are repaired:\n${describeProblems(report.problems)}`, report.problems);
    },
  };
}
