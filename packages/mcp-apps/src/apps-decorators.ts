/**
 * Per-session list decoration for MCP Apps (SEP-1865 "Resource Discovery", "Visibility",
 * graceful degradation): UI sessions get canonical nested `_meta.ui`; other sessions get
 * plain tools, no views and no app-only tools. `ui://` entries not registered through
 * `apps.resource()` are never listed.
 */
import type { Resource, ResourceTemplate, Tool } from "@proto/mcp-protocol";
import type { DecorateContext, ListDecorator, ListItems } from "@proto/mcp-server";
import type { AppsState } from "./apps-state";
import { isServed } from "./apps-state";
import { isUiUri } from "./constants";
import { isAppOnly, readToolUi, toToolUiMeta, withoutUiMeta } from "./tool-meta";

/** Decorates one tool; records its link (or its lack of one) for the link check. */
export function decorateTool(state: AppsState, tool: Tool, ctx: DecorateContext): Tool | undefined {
  const ui = readToolUi(tool._meta);
  if (ui === undefined) {
    state.links.delete(tool.name);
    return tool;
  }
  state.links.set(tool.name, ui);
  if (!isServed(state, ctx.session)) {
    if (isAppOnly(ui)) return undefined;
    const { _meta: _dropped, ...plain } = tool;
    const meta = withoutUiMeta(tool._meta);
    return meta === undefined ? plain : { ...plain, _meta: meta };
  }
  if (isAppOnly(ui) && state.appOnlyTools === "hide") return undefined;
  if (ui.problems.length > 0) return tool; // tools/list answers the link error instead
  return { ...tool, _meta: { ...withoutUiMeta(tool._meta), ui: toToolUiMeta(ui) } };
}

function decorateResource(state: AppsState, resource: Resource, ctx: DecorateContext): Resource | undefined {
  if (!isUiUri(resource.uri)) return resource;
  if (!state.views.has(resource.uri)) {
    state.warnOnce(
      `bypass:${resource.uri}`,
      `MCP Apps: resource ${resource.uri.slice(0, 200)} uses the reserved ui:// scheme but was not registered with apps.resource(); it is neither listed nor readable. Register it with apps.resource().`,
    );
    return undefined;
  }
  return isServed(state, ctx.session) ? resource : undefined;
}

function decorateTemplate(state: AppsState, template: ResourceTemplate): ResourceTemplate | undefined {
  if (!isUiUri(template.uriTemplate)) return template;
  state.warnOnce(
    `template:${template.uriTemplate}`,
    `MCP Apps: resource template ${template.uriTemplate.slice(0, 200)} uses the reserved ui:// scheme; views are predeclared resources, so it is neither listed nor readable. Register each view with apps.resource().`,
  );
  return undefined;
}

/** The decorators of the MCP Apps extension. */
export function createDecorators(state: AppsState): {
  readonly tools: ListDecorator<ListItems["tools"]>;
  readonly resources: ListDecorator<ListItems["resources"]>;
  readonly resourceTemplates: ListDecorator<ListItems["resourceTemplates"]>;
} {
  return {
    tools: (tool, ctx) => decorateTool(state, tool, ctx),
    resources: (resource, ctx) => decorateResource(state, resource, ctx),
    resourceTemplates: (template) => decorateTemplate(state, template),
  };
}
