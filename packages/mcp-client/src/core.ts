/**
 * The shared state of one client: configuration, connection, requester, caches,
 * subscriptions, and the notification handlers installed on every new peer. The API
 * modules (`api-*.ts`) are thin functions over it.
 */
import type { Logger, Peer } from "@proto/jsonrpc";
import {
  LATEST_PROTOCOL_VERSION,
  LOGGING_LEVELS,
  NotificationMethod,
  RequestMethod,
  type LoggingLevel,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Root,
  type Tool,
} from "@proto/mcp-protocol";
import type { ClientOptions } from "./client-types";
import type { ClientEvents } from "./events";
import type { RootsLister } from "./handler-types";
import type { RequestOptions } from "./request-options";
import type { Session } from "./session";
import { assertServerSupports, serverSupports } from "./capability-check";
import { createConnection, type Connection } from "./connection";
import { checkTimeout } from "./deadline";
import { createEmitter, type Emitter } from "./emitter";
import { createListCache, type ListCache } from "./lists";
import { safeCall } from "./observer";
import { createRequester, type Outgoing } from "./requester";
import { sharedSchemaValidator, type SchemaValidator } from "./schema-validation";
import { checkRoots, clientCapabilities, registerServerRequests } from "./server-requests";
import { openSession } from "./session";

const SILENT: Logger = { warn() {}, error() {} };
type Params = { readonly [key: string]: unknown } | undefined;

/** The state the API modules share. */
export interface Core {
  readonly options: ClientOptions;
  readonly emitter: Emitter<ClientEvents>;
  readonly connection: Connection;
  readonly validator: SchemaValidator;
  readonly logger: Logger;
  readonly maxPages: number;
  readonly caches: { readonly tools: ListCache<Tool>; readonly resources: ListCache<Resource>; readonly templates: ListCache<ResourceTemplate>; readonly prompts: ListCache<Prompt> };
  readonly subscriptions: Set<string>;
  logLevel: LoggingLevel | undefined;
  /** Sends a request: connects when needed, checks the capability, applies the options. */
  send(method: string, params: Params, options: RequestOptions | undefined, extra?: Pick<Outgoing, "tool" | "isToolError">): Promise<unknown>;
  /** Sends a notification on the current connection (connecting when needed). */
  notify(method: string, params?: Params): Promise<void>;
  /** Replaces the roots lister (`setRoots`). */
  setRoots(roots: readonly Root[]): void;
  readonly hasRoots: boolean;
  /** Adds a handler for an extension notification, on this and every later connection. */
  addNotificationHandler(method: string, handler: (params: Params) => void): () => void;
}

function checkOptions(options: ClientOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("createClient(options): options must be an object with at least `info: { name, version }`");
  if (typeof options.info?.name !== "string" || typeof options.info.version !== "string") {
    throw new TypeError('createClient(options): `info` must be { name, version } (strings), e.g. { name: "my-host", version: "1.0.0" }');
  }
  checkTimeout("requestTimeoutMs", options.requestTimeoutMs);
  checkTimeout("maxTotalTimeoutMs", options.maxTotalTimeoutMs);
  checkTimeout("connectTimeoutMs", options.connectTimeoutMs);
  if (options.transport !== undefined && typeof options.transport !== "function") throw new TypeError("`transport` must be a function returning a new Transport");
  if (options.roots !== undefined && typeof options.roots !== "function") checkRoots(options.roots);
}

/** Builds the core of a client. */
export function createCore(options: ClientOptions): Core {
  checkOptions(options);
  const logger = options.logger ?? SILENT;
  const report = (error: unknown, what: string): void => logger.error(`${what} threw`, error);
  const emitter = createEmitter<ClientEvents>((error, event) => report(error, `A "${String(event)}" listener`));
  const validator = sharedSchemaValidator();
  const requester = createRequester({
    requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs,
    observer: options.observer,
    report,
  });
  const caches = { tools: createListCache<Tool>(), resources: createListCache<Resource>(), templates: createListCache<ResourceTemplate>(), prompts: createListCache<Prompt>() };
  const custom = new Map<string, (params: Params) => void>();
  let roots: RootsLister | undefined = options.roots === undefined ? undefined
    : typeof options.roots === "function" ? options.roots : ((list: readonly Root[]) => () => list)(options.roots);
  const observe = (direction: "in" | "out", method: string): void =>
    void safeCall((e: { direction: "in" | "out"; method: string }) => options.observer?.notification?.(e), { direction, method }, (e) => report(e, "observer.notification"));

  const builtIn: { readonly [method: string]: (params: Params) => void } = {
    [NotificationMethod.Progress]: (p) => requester.progress(p),
    [NotificationMethod.ToolListChanged]: () => (caches.tools.invalidate(), emitter.emit("toolsChanged", undefined)),
    [NotificationMethod.ResourceListChanged]: () => (caches.resources.invalidate(), caches.templates.invalidate(), emitter.emit("resourcesChanged", undefined)),
    [NotificationMethod.PromptListChanged]: () => (caches.prompts.invalidate(), emitter.emit("promptsChanged", undefined)),
    [NotificationMethod.ResourceUpdated]: (p) => {
      if (typeof p?.uri === "string") emitter.emit("resourceUpdated", p as unknown as ClientEvents["resourceUpdated"]);
      else logger.warn("Ignored notifications/resources/updated without a string `uri`", p);
    },
    [NotificationMethod.Message]: (p) => {
      if ((LOGGING_LEVELS as readonly unknown[]).includes(p?.level)) emitter.emit("log", p as unknown as ClientEvents["log"]);
      else logger.warn("Ignored notifications/message without a valid `level`", p);
    },
    [NotificationMethod.ElicitationComplete]: (p) => {
      if (typeof p?.elicitationId === "string") emitter.emit("elicitationComplete", p as unknown as ClientEvents["elicitationComplete"]);
    },
  };

  function install(peer: Peer, method: string, handler: (params: Params) => void): () => void {
    return peer.handleNotification(method, (params) => {
      observe("in", method);
      handler(Array.isArray(params) ? undefined : (params as Params));
    });
  }

  function register(peer: Peer): void {
    registerServerRequests(peer, { ...(roots === undefined ? {} : { roots: () => roots as RootsLister }), ...handlerOptions() }, validator);
    for (const [method, handler] of Object.entries(builtIn)) install(peer, method, handler);
    for (const [method, handler] of custom) install(peer, method, handler);
  }

  function handlerOptions() {
    const { sampling, elicitation, extensions, experimental } = options;
    return { ...(sampling && { sampling }), ...(elicitation && { elicitation }), ...(extensions && { extensions }), ...(experimental && { experimental }) };
  }

  const probe = options.probe === undefined || options.probe === false ? undefined : options.probe === true ? 5_000 : options.probe.timeoutMs ?? 5_000;
  const connection = createConnection({
    factory: options.transport,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    retry: { ...options.reconnect, retries: options.reconnect?.retries ?? 3 },
    open: (transport, signal) => openSession(transport, {
      clientInfo: options.info,
      capabilities: clientCapabilities({ ...(roots === undefined ? {} : { roots: () => roots as RootsLister }), ...handlerOptions() }),
      protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      probeTimeoutMs: probe,
      logger,
      register,
      sent: (method) => observe("out", method),
    }, signal),
    ready: (session, reconnect) => restore(session, reconnect),
    emitter,
    observer: options.observer,
    report,
  });

  const core: Core = {
    options, emitter, connection, validator, logger, caches,
    maxPages: options.maxPages ?? 1000,
    subscriptions: new Set(),
    logLevel: undefined,
    async send(method, params, requestOptions, extra) {
      const session = await connection.ensure(requestOptions?.signal);
      if (options.enforceCapabilities !== false) assertServerSupports(session.server.capabilities, method, session.server.info.name);
      return requester.send({ peer: session.peer, server: session.server.info, method, params, options: requestOptions, ...extra });
    },
    async notify(method, params) {
      const session = await connection.ensure();
      await session.peer.notify(method, params);
      observe("out", method);
    },
    setRoots(list) {
      if (roots === undefined) throw new TypeError("setRoots(): create the client with a `roots` option; capabilities are fixed when the connection starts");
      const checked = [...checkRoots(list)];
      roots = () => checked;
    },
    get hasRoots() {
      return roots !== undefined;
    },
    addNotificationHandler(method, handler) {
      if (typeof method !== "string" || builtIn[method] !== undefined || custom.has(method)) {
        throw new TypeError(`handleNotification("${String(method)}"): the client handles this method already; use client.on(...) for built-in notifications`);
      }
      if (typeof handler !== "function") throw new TypeError("handleNotification(method, handler): handler must be a function");
      custom.set(method, handler);
      const peer = connection.session?.peer;
      const remove = peer === undefined ? undefined : install(peer, method, handler);
      return () => {
        if (custom.get(method) === handler) custom.delete(method);
        remove?.();
      };
    },
  };

  function restore(session: Session, reconnect: boolean): void {
    for (const cache of Object.values(caches)) cache.invalidate();
    if (!reconnect) return;
    const { capabilities } = session.server;
    const again = (method: string, params: Params): void => {
      requester.send({ peer: session.peer, server: session.server.info, method, params, options: undefined })
        .catch((error: unknown) => logger.warn(`Could not restore "${method}" after reconnecting`, error));
    };
    if (serverSupports(capabilities, RequestMethod.ResourcesSubscribe)) for (const uri of core.subscriptions) again(RequestMethod.ResourcesSubscribe, { uri });
    if (core.logLevel !== undefined && serverSupports(capabilities, RequestMethod.LoggingSetLevel)) again(RequestMethod.LoggingSetLevel, { level: core.logLevel });
  }

  return core;
}
