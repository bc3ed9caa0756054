/**
 * `createServer`: one server definition (identity, tools, features, extensions) serving any
 * number of isolated sessions over any `Transport` (DESIGN.md section 2).
 */
import { createSingleResponder, isSingleRequestTransport } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger, Transport } from "@proto/jsonrpc";
import type { ProtocolVersion, ServerCapabilities } from "@proto/mcp-protocol";
import { LATEST_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from "@proto/mcp-protocol";
import { installFeatures } from "./builtin-features";
import { hasCapability, mergeCapabilities } from "./capabilities";
import type { ServerCore, StatelessCore } from "./core";
import type { ExtensionHost, ServerExtension } from "./extension";
import { createDecorator } from "./extension-decorate";
import { createRegistryHooks, createRegistryView } from "./extension-registry";
import type { FeatureHost } from "./feature";
import { createListEndpoint } from "./list-endpoint";
import type { ListEndpoint, ListKind } from "./list-endpoint";
import type { Server, ServerInfo, ServerOptions } from "./server-types";
import { createSession } from "./session";
import { createContextFactory } from "./session-context";
import { SingleSession } from "./session-single";
import type { PendingSession } from "./session";
import type { ConnectOptions, ServerSession } from "./session-types";
import { createRouter } from "./routes";
import { resolveCacheHints } from "./stateless/encode";
import { LIST_CHANGED_BY_CAPABILITY, withFanout } from "./stateless/fanout";
import { isSharedSession } from "./session-shared";
import { createListenRegistry } from "./stateless/listen";
import { createRequestStateCodec } from "./stateless/request-state";
import { createTasks } from "./tasks/feature";
import { createTools } from "./tools";
import { createSchemaCompiler } from "./validation";
import type { JsonSchemaValidator } from "./validation";

const SILENT: Logger = { warn() {}, error() {} };
const DEFAULT_PAGE_SIZE = 1000;
const LIST_KINDS: readonly ListKind[] = ["tools", "resources", "resourceTemplates", "prompts"];
const LIST_CHANGED: ReadonlySet<string> = new Set(Object.values(LIST_CHANGED_BY_CAPABILITY));

function checkOptions(info: ServerInfo, options: ServerOptions): readonly ProtocolVersion[] {
  if (typeof info !== "object" || info === null || typeof info.name !== "string" || typeof info.version !== "string") {
    throw new TypeError("createServer(info): pass { name, version } (strings)");
  }
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new TypeError(`createServer: pageSize must be a positive integer, got ${String(pageSize)}`);
  if (options.repeatableTools !== undefined && !(Array.isArray(options.repeatableTools) && options.repeatableTools.every((name) => typeof name === "string"))) {
    throw new TypeError("createServer: repeatableTools must be an array of tool names");
  }
  const versions = options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  if (versions.length === 0 || !versions.every((v) => SUPPORTED_PROTOCOL_VERSIONS.includes(v))) {
    throw new TypeError(`createServer: supportedVersions must be a non-empty subset of ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}`);
  }
  return versions;
}

function createStateless(options: ServerOptions, toolSchema: StatelessCore["toolSchema"], logger: Logger): StatelessCore {
  const o = options.stateless ?? {};
  const versions = o.versions ?? MODERN_PROTOCOL_VERSIONS;
  if (!versions.every((v) => MODERN_PROTOCOL_VERSIONS.includes(v))) {
    throw new TypeError(`createServer: stateless.versions must be a subset of ${MODERN_PROTOCOL_VERSIONS.join(", ")}`);
  }
  const max = o.maxListens ?? 1024;
  if (!Number.isInteger(max) || max < 0) throw new TypeError("createServer: stateless.maxListens must be an integer >= 0");
  const listens = o.fanout === undefined ? createListenRegistry(max) : withFanout(createListenRegistry(max), o.fanout, logger);
  return { versions, requestState: createRequestStateCodec(o.requestState), cacheHints: resolveCacheHints(o.cache), listens, toolSchema };
}

function checkValidator(engine: unknown): JsonSchemaValidator {
  if (engine === undefined) return "auto";
  if (engine === "auto" || engine === "ajv" || engine === "interpreter") return engine;
  throw new TypeError(`createServer: jsonSchemaValidator must be "auto", "ajv" or "interpreter", got ${JSON.stringify(engine)}`);
}

/** Creates a server. It owns its sessions; `close()` closes them all. */
export function createServer(info: ServerInfo, options: ServerOptions = {}): Server {
  const supportedVersions = checkOptions(info, options);
  // without a logger of its own, the server logs where a host (serveStdio) says, else nowhere
  let fallback: Logger = SILENT;
  const logger: Logger = options.logger ?? {
    debug: (message, detail) => fallback.debug?.(message, detail),
    info: (message, detail) => fallback.info?.(message, detail),
    warn: (message, detail) => fallback.warn(message, detail),
    error: (message, detail) => fallback.error(message, detail),
  };
  // `tools` is created below; the lookup runs only when requests arrive
  const stateless = createStateless(options, (name) => tools.schemaOf(name), logger);
  const { instructions, ...serverInfo } = info;
  const live = new Map<ServerSession, PendingSession>();
  const router = createRouter();
  const decorator = createDecorator(router.extensions, logger);
  const lists = new Map<string, ListEndpoint<unknown>>();
  let closed = false;

  const host: FeatureHost = {
    logger,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    createList(spec) {
      if (lists.has(spec.kind)) throw new TypeError(`createList(): a list of kind "${spec.kind}" already exists; one list per kind`);
      const list = createListEndpoint({ pageSize: host.pageSize, decorate: decorator, broadcast: host.broadcast }, spec);
      lists.set(spec.kind, list as ListEndpoint<unknown>);
      return list;
    },
    registry: createRegistryHooks(router.extensions, logger),
    sessions: () => live.keys(),
    stream: (method: string, params?: JsonRpcParams) => stateless.listens.deliver(method, params),
    broadcast(method: string, params?: JsonRpcParams, filter?: (session: ServerSession) => boolean, version?: () => string) {
      const send = (): void => {
        stateless.listens.deliver(method, params);
        const shared = LIST_CHANGED.has(method) && host.notifyShared?.(method, method, params) === true;
        for (const session of live.keys()) {
          if (!session.initialized || (filter !== undefined && !filter(session)) || (shared && isSharedSession(session))) continue;
          session.notify(method, params).catch((error: unknown) => logger.warn(`Could not send ${method} to session ${session.id}`, error));
        }
      };
      const fanout = options.stateless?.fanout;
      if (version === undefined || fanout?.announce === undefined) return send();
      // every instance may report the same change (one deploy): the first to announce its version sends it
      Promise.resolve(fanout.announce(method, version())).then(
        (changed) => void (changed !== false && send()),
        (error: unknown) => {
          logger.warn(`announcing ${method} to the other instances failed; sent from here`, error);
          send();
        },
      );
    },
    notifyShared(topic: string, method: string, params?: JsonRpcParams) {
      const fanout = options.stateless?.fanout;
      if (fanout?.notifySessions === undefined) return false;
      const message = params === undefined ? { jsonrpc: "2.0" as const, method } : { jsonrpc: "2.0" as const, method, params };
      Promise.resolve()
        .then(() => fanout.notifySessions?.(topic, message))
        .catch((error: unknown) => logger.warn(`${method} could not reach the shared sessions of ${topic}`, error));
      return true;
    },
  };

  const tasks =
    options.tasks === undefined
      ? undefined
      : createTasks(options.tasks, { logger, stream: (method, params) => stateless.listens.deliver(method, params), modeOf: (name) => tools.taskModeOf(name) });
  const tools = createTools(host, {
    compiler: createSchemaCompiler(logger, checkValidator(options.jsonSchemaValidator)),
    unauthenticatedScopes: options.unauthenticatedScopes ?? "refuse",
    ...(tasks === undefined ? {} : { wrapCall: tasks.wrap }),
  });
  const builtins = installFeatures(host, { logLevel: options.logLevel });
  router.addFeature(tools.feature);
  if (tasks !== undefined) {
    router.addFeature(tasks.feature);
    router.addExtension(tasks.extension);
    stateless.listens.allowTasks(tasks.visible);
  }
  for (const feature of builtins.features) router.addFeature(feature);

  const core: ServerCore = {
    info: serverInfo,
    instructions,
    logger,
    requestTimeoutMs: options.requestTimeoutMs,
    supportedVersions,
    stateless,
    routes: router.routes,
    notificationRoutes: router.notificationRoutes,
    interceptors: router.interceptors,
    features: router.features,
    extensions: router.extensions,
    createContext: createContextFactory(router.features),
    capabilities: (): ServerCapabilities => mergeCapabilities([...router.features.map((f) => f.capabilities?.()), options.capabilities]),
    advertises: (key) => hasCapability(router.features, options.capabilities, key),
    opened: () => {},
    closed(state, view) {
      live.delete(view);
      router.closeStates(state, view, logger);
    },
    forget(view) {
      live.delete(view);
    },
  };
  const respond = createSingleResponder(logger);

  async function connect(transport: Transport, connectOptions?: ConnectOptions): Promise<ServerSession> {
    if (closed) throw new TypeError("connect(): the server is closed; create a new server");
    // one stateless POST: no Peer, no handler per method, no feature state until a handler uses one
    const session =
      isSingleRequestTransport(transport) && connectOptions?.shared === undefined
        ? new SingleSession(core, transport, respond, connectOptions ?? {})
        : createSession(core, transport, connectOptions);
    live.set(session.view, session);
    try {
      await session.start();
    } catch (error) {
      live.delete(session.view);
      throw error;
    }
    return session.view;
  }

  const extensionHost: ExtensionHost = {
    registry: createRegistryView(lists),
    invalidate(kind: ListKind) {
      const list = LIST_KINDS.includes(kind) ? lists.get(kind) : undefined;
      if (list === undefined) throw new TypeError(`invalidate(kind): kind must be one of ${LIST_KINDS.join(", ")}, got ${JSON.stringify(kind)}`);
      list.invalidate();
    },
  };

  const server = {
    info,
    tool: (definition: Parameters<typeof tools.add>[0], handler?: Parameters<typeof tools.add>[1]) => tools.add(definition, handler),
    removeTool: (name: string) => tools.remove(name),
    enableTool: (name: string, enabled = true) => tools.setEnabled(name, enabled),
    use(extension: ServerExtension) {
      const methods = router.addExtension(extension, () => extension.installed?.(extensionHost));
      for (const method of methods) for (const session of live.values()) session.addMethod(method);
      // The lists it decorates change for sessions that already listed them.
      for (const [kind, list] of lists) if (extension.decorate?.[kind as ListKind] !== undefined) list.invalidate();
    },
    connect,
    sessions: () => [...live.keys()],
    fallbackLogger: (next: Logger) => {
      fallback = next;
    },
    summary: () => ({ name: info.name, version: info.version, protocolVersion: supportedVersions[0] ?? LATEST_PROTOCOL_VERSION, statelessVersions: stateless.versions, tools: tools.names() }),
    ready: () => tools.ready(),
    scopesFor: (request: { method: string; params?: unknown }) => (request.method === "tools/call" ? tools.scopesFor(request.params) : undefined),
    repeatable: (request: { method: string; params?: unknown }) => request.method !== "tools/call" || tools.repeatable(request.params, options.repeatableTools),
    async close() {
      closed = true;
      await tasks?.runtime.close();
      await stateless.listens.closeAll();
      await Promise.all([...live.keys()].map((session) => session.close()));
    },
    ...builtins.api,
  };
  return server as Server;
}
