/**
 * `createServer`: one server definition (identity, tools, features, extensions) serving any
 * number of isolated sessions over any `Transport` (DESIGN.md section 2).
 */
import type { JsonRpcParams, Logger, Transport } from "@proto/jsonrpc";
import type { ProtocolVersion, ServerCapabilities } from "@proto/mcp-protocol";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@proto/mcp-protocol";
import { installFeatures } from "./builtin-features";
import { mergeCapabilities } from "./capabilities";
import type { NotificationRoute, Route, ServerCore } from "./core";
import type { ExtensionInterceptor, ServerExtension } from "./extension";
import { createDecorator } from "./extension-decorate";
import type { AnyFeature, FeatureHost } from "./feature";
import { createListEndpoint } from "./list-endpoint";
import type { Server, ServerInfo, ServerOptions } from "./server-types";
import { createSession } from "./session";
import { createContextFactory } from "./session-context";
import type { PendingSession } from "./session";
import type { ServerSession } from "./session-types";
import { createTools } from "./tools";
import { createSchemaCompiler } from "./validation";

const SILENT: Logger = { warn() {}, error() {} };
const DEFAULT_PAGE_SIZE = 1000;

function checkOptions(info: ServerInfo, options: ServerOptions): readonly ProtocolVersion[] {
  if (typeof info !== "object" || info === null || typeof info.name !== "string" || typeof info.version !== "string") {
    throw new TypeError("createServer(info): pass { name, version } (strings)");
  }
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new TypeError(`createServer: pageSize must be a positive integer, got ${String(pageSize)}`);
  const versions = options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  if (versions.length === 0 || !versions.every((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v))) {
    throw new TypeError(`createServer: supportedVersions must be a non-empty subset of ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`);
  }
  return versions;
}

/** Creates a server. It owns its sessions; `close()` closes them all. */
export function createServer(info: ServerInfo, options: ServerOptions = {}): Server {
  const supportedVersions = checkOptions(info, options);
  const logger = options.logger ?? SILENT;
  const { instructions, ...serverInfo } = info;
  const live = new Map<ServerSession, PendingSession>();
  const extensions: ServerExtension[] = [];
  const routes = new Map<string, Route>();
  const notificationRoutes = new Map<string, NotificationRoute>();
  const interceptors = new Map<string, ExtensionInterceptor[]>();
  const features: AnyFeature[] = [];
  const decorator = createDecorator(extensions, logger);
  let closed = false;

  const host: FeatureHost = {
    logger,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    createList: (spec) => createListEndpoint({ pageSize: host.pageSize, decorate: decorator, broadcast: host.broadcast }, spec),
    sessions: () => live.keys(),
    broadcast(method: string, params?: JsonRpcParams, filter?: (session: ServerSession) => boolean) {
      for (const session of live.keys()) {
        if (!session.initialized || (filter !== undefined && !filter(session))) continue;
        session.notify(method, params).catch((error: unknown) => logger.warn(`Could not send ${method} to session ${session.id}`, error));
      }
    },
  };

  const tools = createTools(host, { compiler: createSchemaCompiler(logger), unauthenticatedScopes: options.unauthenticatedScopes ?? "refuse" });
  const builtins = installFeatures(host);

  function addFeature(feature: AnyFeature): void {
    for (const [method, run] of Object.entries(feature.requests ?? {})) {
      if (routes.has(method)) throw new TypeError(`Feature "${feature.name}": method "${method}" already has a handler`);
      routes.set(method, { feature, run });
    }
    for (const [method, run] of Object.entries(feature.notifications ?? {})) {
      if (notificationRoutes.has(method)) throw new TypeError(`Feature "${feature.name}": notification "${method}" already has a handler`);
      notificationRoutes.set(method, { feature, run });
    }
    features.push(feature);
  }
  addFeature(tools.feature);
  for (const feature of builtins.features) addFeature(feature);

  const core: ServerCore = {
    info: serverInfo,
    instructions,
    logger,
    requestTimeoutMs: options.requestTimeoutMs,
    supportedVersions,
    routes,
    notificationRoutes,
    interceptors,
    features,
    extensions,
    createContext: createContextFactory(features),
    capabilities: (): ServerCapabilities => mergeCapabilities([...features.map((f) => f.capabilities?.()), options.capabilities]),
    opened: () => {},
    closed(state, view) {
      live.delete(view);
      for (const feature of features) {
        if (feature.closeState === undefined || !state.features.has(feature)) continue;
        try {
          feature.closeState(state.features.get(feature), view);
        } catch (error) {
          logger.error(`Feature "${feature.name}" threw while closing session ${view.id}`, error);
        }
      }
    },
  };
  function use(extension: ServerExtension): void {
    if (typeof extension !== "object" || extension === null || typeof extension.id !== "string" || extension.id === "") {
      throw new TypeError("use(extension): pass an object with a non-empty string id");
    }
    if (extensions.some((e) => e.id === extension.id)) throw new TypeError(`use(): extension "${extension.id}" is already in use`);
    for (const method of Object.keys(extension.methods ?? {})) {
      if (routes.has(method) || method === "initialize" || method === "ping" || method === "server/discover") {
        throw new TypeError(`use("${extension.id}"): method "${method}" already has a handler`);
      }
    }
    extensions.push(extension);
    for (const [method, handler] of Object.entries(extension.methods ?? {})) {
      routes.set(method, { feature: undefined, run: (params, ctx) => handler(params, ctx) });
      for (const session of live.values()) session.addMethod(method);
    }
    for (const [method, interceptor] of Object.entries(extension.intercept ?? {})) {
      const list = interceptors.get(method) ?? [];
      list.push(interceptor);
      interceptors.set(method, list);
    }
    tools.invalidate();
  }

  const server = {
    info,
    tool: (definition: Parameters<typeof tools.add>[0], handler?: Parameters<typeof tools.add>[1]) => tools.add(definition, handler),
    removeTool: (name: string) => tools.remove(name),
    enableTool: (name: string, enabled = true) => tools.setEnabled(name, enabled),
    use,
    async connect(transport: Transport, connectOptions?: Parameters<Server["connect"]>[1]) {
      if (closed) throw new TypeError("connect(): the server is closed; create a new server");
      const session = createSession(core, transport, connectOptions);
      live.set(session.view, session);
      try {
        await session.start();
      } catch (error) {
        live.delete(session.view);
        throw error;
      }
      return session.view;
    },
    sessions: () => [...live.keys()],
    summary: () => ({ name: info.name, version: info.version, protocolVersion: supportedVersions[0] ?? LATEST_PROTOCOL_VERSION, tools: tools.names() }),
    scopesFor: (request: { method: string; params?: unknown }) => (request.method === "tools/call" ? tools.scopesFor(request.params) : undefined),
    async close() {
      closed = true;
      await Promise.all([...live.keys()].map((session) => session.close()));
    },
    ...builtins.api,
  };
  return server as Server;
}
