/**
 * `createGateway`: one `@proto/mcp-server` server in front of many child servers, built on
 * the server's public extension API only. The gateway's extension intercepts the list, call,
 * read, subscribe, prompt, completion and log-level methods and answers them from its pool
 * of children; a second extension negotiates MCP Apps (`io.modelcontextprotocol/ui`) upstream,
 * which decides, per request, whether links, views and app-only tools are shown.
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { LoggingLevel } from "@proto/mcp-protocol";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "@proto/mcp-apps";
import { createServer } from "@proto/mcp-server";
import type { ExtensionHost, RequestContext, Server, ServerSession } from "@proto/mcp-server";
import { describeError } from "./classify";
import { complete, getPrompt, listPrompts } from "./forward-prompts";
import { interceptListen } from "./forward-listen";
import { listResources, listTemplates, readResource, routeUri, subscription } from "./forward-resources";
import { callTool, listTools } from "./forward-tools";
import type { ChildStatus, Gateway } from "./gateway-types";
import { createPool } from "./pool";
import type { Pool } from "./pool";
import { childSettings, resolveSettings } from "./settings";
import type { GatewayOptions } from "./types";

/** The id of the gateway's own (interception) extension. */
export const GATEWAY_EXTENSION_ID = "dev.proto/gateway";

function isUi(ctx: RequestContext): boolean {
  if (ctx.session.extension(UI_EXTENSION_ID) !== undefined) return true;
  const declared = (ctx.clientCapabilities.extensions as { [id: string]: { mimeTypes?: unknown } } | undefined)?.[UI_EXTENSION_ID];
  return Array.isArray(declared?.mimeTypes) && declared.mimeTypes.includes(UI_MIME_TYPE);
}

function instructionsFor(options: GatewayOptions, separator: string): string {
  const names = Object.keys(options.children).sort();
  return `This gateway serves the tools, prompts and resources of ${names.length} server${names.length === 1 ? "" : "s"} (${names.join(", ")}), named <server>${separator}<name>.`;
}

/**
 * Creates a gateway. It is a `Server` (connect it to any transport: `serveStdio(gateway)`,
 * the Streamable HTTP handler) with `start()`, `status()` and a `close()` that also stops the
 * children. With `sessions: "shared"` (default) children start on `start()` or the first
 * session, and serve every session; with `"isolated"` each upstream session gets its own
 * children, stopped when it closes. Throws a `TypeError` for bad options.
 */
export function createGateway(options: GatewayOptions): Gateway {
  const settings = resolveSettings(options);
  for (const [name, config] of Object.entries(settings.children)) childSettings(settings, name, config);
  const server = createServer(
    { name: settings.name, version: settings.version, instructions: options.instructions ?? instructionsFor(options, settings.separator) },
    {
      logger: settings.logger,
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, logging: {}, completions: {} },
    },
  );
  const pools = new Map<ServerSession, Pool>();
  const upstream = (sessions: () => Iterable<ServerSession>) => ({
    sessions,
    sendLog: (session: ServerSession, level: LoggingLevel, data: unknown, logger: string) => void server.sendLog(session, level, data, logger).catch(() => {}),
  });
  let extensionHost: ExtensionHost | undefined;
  const shared = createPool(settings, {
    // In "isolated" mode the shared children serve only 2026-07-28 requests: no session of theirs.
    ...upstream(() => (settings.sessions === "shared" ? server.sessions() : [])),
    listChanged: (kind) => extensionHost?.invalidate(kind),
    // No session subscribed through the server itself (the gateway answers resources/subscribe), so this reaches the listen streams only.
    resourceUpdated: (uri) => void server.resourceUpdated(uri),
  });
  const listenRoutes = {
    ready: () => shared.ready(),
    holds: shared.holds,
    route(uri: string) {
      try {
        const target = routeUri(shared, settings, uri);
        const child = shared.children.get(target.child);
        return child === undefined ? undefined : { child, uri: target.uri };
      } catch {
        return undefined;
      }
    },
  };

  function poolFor(session: ServerSession): Pool {
    // A 2026-07-28 request has no session to isolate (each stateless HTTP request is a new
    // connection): it is served by the shared children, which would otherwise start per request.
    if (settings.sessions === "shared" || !session.initialized) {
      void shared.start().catch(() => {});
      return shared;
    }
    let pool = pools.get(session);
    if (pool === undefined) {
      const own = createPool(settings, upstream(() => (session.initialized ? [session] : [])));
      pool = own;
      pools.set(session, own);
      void own.start().catch(() => {});
      void session.closed.then(() => {
        pools.delete(session);
        void own.close();
      });
    }
    return pool;
  }

  const on = (run: (pool: Pool, params: JsonRpcParams | undefined, ctx: RequestContext) => unknown) => (params: JsonRpcParams | undefined, ctx: RequestContext) => run(poolFor(ctx.session), params, ctx);

  server.use({ id: UI_EXTENSION_ID, settings: (client) => (Array.isArray(client.mimeTypes) && client.mimeTypes.includes(UI_MIME_TYPE) ? { mimeTypes: [UI_MIME_TYPE] } : undefined) });
  server.use({
    id: GATEWAY_EXTENSION_ID,
    installed: (host) => (extensionHost = host),
    initialized: (session) => {
      poolFor(session);
      void session.closed.then(() => shared.subscriptions.delete(session));
    },
    intercept: {
      "tools/list": on((pool, params, ctx) => listTools(pool, ctx, params, isUi(ctx))),
      "tools/call": on((pool, params, ctx) => callTool(pool, settings, ctx, params, isUi(ctx))),
      "prompts/list": on((pool, params) => listPrompts(pool, params)),
      "prompts/get": on((pool, params, ctx) => getPrompt(pool, settings, ctx, params)),
      "resources/list": on((pool, params, ctx) => listResources(pool, params, isUi(ctx))),
      "resources/templates/list": on((pool, params) => listTemplates(pool, params)),
      "resources/read": on((pool, params, ctx) => readResource(pool, settings, ctx, params)),
      "resources/subscribe": on((pool, params, ctx) => subscription(pool, settings, ctx, params, true)),
      "resources/unsubscribe": on((pool, params, ctx) => subscription(pool, settings, ctx, params, false)),
      "completion/complete": on((pool, params, ctx) => complete(pool, settings, ctx, params)),
      // 2026-07-28: the URIs a listen stream names are subscribed on their (shared) children while it lasts.
      "subscriptions/listen": (params, ctx, next) => interceptListen(listenRoutes, params, ctx, next),
      "logging/setLevel": async (params, ctx, next) => {
        const result = await next();
        const level = (params as { level?: LoggingLevel } | undefined)?.level as LoggingLevel;
        const pool = poolFor(ctx.session);
        pool.logLevel = level;
        for (const child of pool.children.values()) {
          if (child.state === "ready" && child.snapshot.logging) void child.run((client) => client.setLoggingLevel(level)).catch(() => {});
        }
        return result;
      },
    },
  });

  const closeServer = server.close.bind(server);
  const connectServer = server.connect.bind(server);
  const baseSummary = server.summary.bind(server);
  const status = (): ChildStatus[] =>
    [...shared.children.values()].map((c) => ({
      name: c.name,
      state: c.state,
      tools: shared.catalog().tools.filter((t) => t.child === c.name).map((t) => t.exposed),
      ...(c.lastError === undefined ? {} : { error: describeError(c.lastError) }),
    }));
  return Object.assign(server, {
    start: () => shared.start(),
    // A 2026-07-28 upstream sends no `initialize`, so the `initialized` hook cannot be what starts shared children.
    connect(transport: Parameters<typeof connectServer>[0], connectOptions?: Parameters<typeof connectServer>[1]) {
      if (settings.sessions === "shared") void shared.start().catch(() => {});
      return connectServer(transport, connectOptions);
    },
    status,
    catalog: () => shared.catalog(),
    summary: () => ({ ...baseSummary(), tools: shared.catalog().tools.filter((t) => !t.appOnly).map((t) => t.exposed) }),
    async close() {
      await closeServer();
      await Promise.all([shared.close(), ...[...pools.values()].map((p) => p.close())]);
    },
  }) satisfies Server as Gateway;
}
