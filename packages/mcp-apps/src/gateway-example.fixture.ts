/**
 * The README's gateway example, kept here so a test runs it (not exported): a gateway
 * server that re-serves the views and tools of child servers under `ui://<gateway>/<child>/...`,
 * with MCP Apps gating, link integrity and verification of its own.
 */
import type { Logger } from "@proto/jsonrpc";
import type { Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createApps, createGatewayUriMap, dropUiDomain, isUiUri, rewriteResourcesList, rewriteToolResult, rewriteToolsList } from "./index";
import type { UiResourceMeta, UiToolMeta } from "./index";

/** Builds a gateway named `name` over connected child clients (each declared the MCP Apps extension). */
export async function createGateway(name: string, children: Readonly<Record<string, Client>>, logger?: Logger): Promise<Server> {
  const server = createServer({ name, version: "1.0.0" });
  const apps = createApps(server);
  for (const [child, client] of Object.entries(children)) {
    const map = createGatewayUriMap(name, child);
    const served = new Set<string>();
    // Views: listed under gateway URIs, read through the child, dedicated domains dropped.
    const { resources } = dropUiDomain(rewriteResourcesList({ resources: await client.listAllResources() }, map.toGateway));
    for (const view of resources.filter((r) => isUiUri(r.uri))) {
      try {
        const { uri, name: viewName, title, description, _meta } = view;
        apps.resource({ uri, name: viewName, title, description, ui: _meta?.ui as UiResourceMeta | undefined }, async (gatewayUri) => {
          const [content] = (await client.readResource(map.fromGateway(gatewayUri))).contents;
          if (content === undefined) return undefined;
          return "text" in content ? content.text : Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0));
        });
        served.add(uri);
      } catch (error) {
        logger?.warn(`gateway: skipping view ${view.uri} of ${child}`, error); // malformed metadata: omitted
      }
    }
    // Tools: namespaced names, links rewritten; a link to a view the child does not serve is dropped.
    for (const tool of rewriteToolsList({ tools: await client.listAllTools() }, map.toGateway).tools) {
      const { _meta, ...rest } = tool;
      const { ui, ...meta } = (_meta ?? {}) as { ui?: UiToolMeta };
      const definition = { ...rest, name: `${child}_${tool.name}`, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) };
      const call = async (args: { readonly [key: string]: unknown }) => rewriteToolResult(await client.callTool(tool.name, args), map.toGateway);
      const linked = ui !== undefined && (ui.resourceUri === undefined || served.has(ui.resourceUri));
      if (linked) apps.tool({ ...definition, ui }, call);
      else server.tool(definition, call);
    }
  }
  return server;
}
