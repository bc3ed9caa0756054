/**
 * MCP Apps on the server's registry events: what it refuses at registration (SEP-1865
 * "Reservations in MCP": `ui://` is for views, which `apps.resource()` registers; tool
 * `_meta.ui` must be well formed) and the `tools/list_changed` a view's arrival or removal
 * means for caching clients of the tools linked to it.
 */
import type { RegistryEntry, ServerRegistry } from "@proto/mcp-server";
import type { AppsState } from "./apps-state";
import { registryOf } from "./apps-state";
import { isUiUri } from "./constants";
import { readToolUi } from "./tool-meta";

/** Throws a `TypeError` saying what to do when MCP Apps cannot serve `entry`; `where` prefixes the message. */
export function checkEntry(state: AppsState, entry: RegistryEntry, where = ""): void {
  if (entry.kind === "resources" && isUiUri(entry.item.uri) && state.admitting !== entry.item.uri) {
    const uri = JSON.stringify(entry.item.uri.slice(0, 200));
    throw new TypeError(`${where}resource(${uri}): ui:// is reserved for MCP Apps views; register it with apps.resource() from @proto/mcp-apps`);
  }
  if (entry.kind === "resourceTemplates" && isUiUri(entry.item.uriTemplate)) {
    const template = JSON.stringify(entry.item.uriTemplate.slice(0, 200));
    throw new TypeError(`${where}resourceTemplate(${template}): ui:// is reserved for MCP Apps views, which are predeclared: register each view with apps.resource()`);
  }
  if (entry.kind === "tools") {
    const ui = readToolUi(entry.item._meta);
    if (ui === undefined || ui.problems.length === 0) return;
    throw new TypeError(
      `${where}tool(${JSON.stringify(entry.item.name)}): malformed _meta.ui: ${ui.problems.join("; ")}. Fix it, or register the tool with apps.tool({ ..., ui: { resourceUri, visibility } }), which writes it`,
    );
  }
}

/** Checks what was registered before `createApps`: the same rules, as a `TypeError` from `createApps`. */
export function checkExisting(state: AppsState, registry: ServerRegistry): void {
  const where = "createApps(): registered before MCP Apps was installed: ";
  for (const item of registry.resources()) checkEntry(state, { kind: "resources", item }, where);
  for (const item of registry.resourceTemplates()) checkEntry(state, { kind: "resourceTemplates", item }, where);
  for (const item of registry.tools()) checkEntry(state, { kind: "tools", item }, where);
}

/** After a view came or went: the tools linked to it list differently (or fail) for UI sessions now. */
export function viewChanged(state: AppsState, entry: RegistryEntry): void {
  if (entry.kind !== "resources" || !isUiUri(entry.item.uri)) return;
  const uri = entry.item.uri;
  if (registryOf(state).tools().some((tool) => readToolUi(tool._meta)?.resourceUri === uri)) state.host?.invalidate("tools");
}
