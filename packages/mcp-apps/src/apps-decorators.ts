/**
 * List decoration for MCP Apps, by negotiated extensions (per session or per 2026-07-28 request) (SEP-1865 "Resource Discovery", "Visibility",
 * graceful degradation): UI sessions get canonical nested `_meta.ui`; other sessions get
 * plain tools, no views and no app-only tools. (`ui://` resources other than views cannot be
 * registered: see `apps-registry.ts`.)
 */
import type { Resource, Tool } from "@proto/mcp-protocol";
import type { DecorateContext, ListDecorator, ListItems } from "@proto/mcp-server";
import type { AppsState } from "./apps-state";
import { isServed } from "./apps-state";
import { isUiUri } from "./constants";
import { isAppOnly, readToolUi, toToolUiMeta, withoutUiMeta } from "./tool-meta";

/** Decorates one tool for a client (by what it negotiated). */
export function decorateTool(state: AppsState, tool: Tool, ctx: DecorateContext): Tool | undefined {
  const ui = readToolUi(tool._meta);
  if (ui === undefined) return tool;
  if (!isServed(state, ctx)) {
    if (isAppOnly(ui)) return undefined;
    const { _meta: _dropped, ...plain } = tool;
    const meta = withoutUiMeta(tool._meta);
    return meta === undefined ? plain : { ...plain, _meta: meta };
  }
  if (isAppOnly(ui) && state.appOnlyTools === "hide") return undefined;
  if (ui.problems.length > 0) return tool; // tools/list answers the link error instead
  return { ...tool, _meta: { ...withoutUiMeta(tool._meta), ui: toToolUiMeta(ui) } };
}

/** Views are listed to UI sessions only. */
function decorateResource(state: AppsState, resource: Resource, ctx: DecorateContext): Resource | undefined {
  return !isUiUri(resource.uri) || isServed(state, ctx) ? resource : undefined;
}

/** The decorators of the MCP Apps extension. */
export function createDecorators(state: AppsState): {
  readonly tools: ListDecorator<ListItems["tools"]>;
  readonly resources: ListDecorator<ListItems["resources"]>;
} {
  return {
    tools: (tool, ctx) => decorateTool(state, tool, ctx),
    resources: (resource, ctx) => decorateResource(state, resource, ctx),
  };
}
