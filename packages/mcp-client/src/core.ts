/**
 * The shared state of one client: configuration, connection, requester, caches,
 * subscriptions, and what gets installed on every new peer. The API modules (`api-*.ts`)
 * are thin functions over it.
 */
import type { Logger, Peer, Transport } from "@proto/jsonrpc";
import { LATEST_PROTOCOL_VERSION, NotificationMethod, RequestMethod, type Root } from "@proto/mcp-protocol";
import type { ClientOptions } from "./client-types";
import type { ClientEvents } from "./events";
import type { RootsLister } from "./handler-types";
import type { RequestOptions } from "./request-options";
import type { ModernContext, Session } from "./session";
import { assertServerSupports } from "./capability-check";
import { createConnection } from "./connection";
import type { Core, Extra } from "./core-types";
import { checkOptions, probeTimeout, protocolChoice } from "./core-options";
import { relistTools, restore } from "./core-resync";
import { createEmitter } from "./emitter";
import { createListCache } from "./lists";
import { builtInNotifications, installRoute, type ListCaches, type NotificationParamsRecord, type NotificationRoute } from "./notifications";
import { safeCall, type NotificationEvent } from "./observer";
import { createRequester } from "./requester";
import { sharedSchemaValidator } from "./schema-validation";
import { createServedTasks } from "./task-serve";
import { checkRoots, clientCapabilities, createInputResponder, registerServerRequests, type InputResponder, type ServerRequestHandlers } from "./server-requests";
import { openSession } from "./session";
import { createEnvelopeCache, createEraMemory, type EraMemory } from "./era";
import { DEFAULT_MAX_INPUT_ROUNDS, sendModern, type ModernWire } from "./modern-send";
import { createListener, type Listener } from "./listen";
import { ClientFaultCode, McpClientError } from "./errors";
import { createTaskRegistry } from "./task-registry";
import { resolveTaskOptions, withTaskExtension } from "./task-options";

export type { Core } from "./core-types";

const SILENT: Logger = { warn() {}, error() {} };

/** The client-wide memory of era verdicts when the owner passes none. */
const sharedMemory = createEraMemory();

/** Builds the core of a client. */
export function createCore(options: ClientOptions): Core {
  checkOptions(options);
  const logger = options.logger ?? SILENT;
  const report = (error: unknown, what: string): void => logger.error(`${what} threw`, error);
  const emitter = createEmitter<ClientEvents>((error, event) => report(error, `A "${String(event)}" listener`));
  const requester = createRequester({ requestTimeoutMs: options.requestTimeoutMs ?? 60_000, maxTotalTimeoutMs: options.maxTotalTimeoutMs, observer: options.observer, report });
  // `cacheScope: "private"` lists are kept for the credentials in use (the transport's id of them; none on stdio).
  const credential = (): Promise<string | undefined> => connection.session?.credential?.() ?? Promise.resolve(undefined);
  const caches: ListCaches = { tools: createListCache(credential), resources: createListCache(credential), templates: createListCache(credential), prompts: createListCache(credential) };
  let listener: Listener | undefined;
  const taskOptions = resolveTaskOptions(options.tasks);
  const tasks = createTaskRegistry(logger, () => void listener?.refresh());
  const served = options.tasks?.serveRequests === undefined || options.tasks.serveRequests === false ? undefined : createServedTasks(options.tasks.serveRequests);
  emitter.on("disconnected", ({ expected }) => {
    if (expected) served?.close();
    if (expected) tasks.stopAll(new McpClientError(ClientFaultCode.Closed, "The client was closed while it watched this task; create a client and call resumeTask(taskId) to go on"));
  });
  const builtIn: { readonly [method: string]: NotificationRoute } = {
    ...builtInNotifications(requester, caches, emitter, logger),
    [NotificationMethod.SubscriptionsAcknowledged]: (p: NotificationParamsRecord) => listener?.acknowledged(p),
    [NotificationMethod.TaskStatus]: (p: NotificationParamsRecord) => tasks.push(p, false),
    [NotificationMethod.Tasks]: (p: NotificationParamsRecord) => tasks.push(p, true),
  };
  const custom = new Map<string, NotificationRoute>();
  let roots: RootsLister | undefined = options.roots === undefined || typeof options.roots === "function" ? options.roots : ((list: readonly Root[]) => () => list)(options.roots);
  const observe = (direction: NotificationEvent["direction"]) => (method: string): void =>
    void safeCall((e: NotificationEvent) => options.observer?.notification?.(e), { direction, method }, (e) => report(e, "observer.notification"));
  const handlers = (): ServerRequestHandlers => {
    const { sampling, elicitation, extensions, experimental } = options;
    return { ...(roots && { roots: () => roots as RootsLister }), ...(sampling && { sampling }), ...(elicitation && { elicitation }), ...(extensions && { extensions }), ...(experimental && { experimental }), ...(served && { tasks: served }) };
  };
  const respond: InputResponder = createInputResponder(handlers, sharedSchemaValidator());
  const choice = protocolChoice(options);
  // Verdicts are shared under the server's key (`serverKey`, else the transport's: its command line
  // or origin), read once per connect attempt; a transport without one keeps them in this client.
  const ownMemory = createEraMemory();
  const memoryOf = (transport: Transport): { memory: EraMemory; memoryKey: string } => {
    const key = options.serverKey ?? (transport.serverKey || undefined);
    return key === undefined ? { memory: ownMemory, memoryKey: "" } : { memory: options.eraMemory ?? sharedMemory, memoryKey: key };
  };
  const register = (peer: Peer): void => {
    registerServerRequests(peer, handlers(), sharedSchemaValidator());
    for (const [method, route] of [...Object.entries(builtIn), ...custom]) installRoute(peer, method, route, observe("in"));
  };
  /** A new server-side session (a reconnect, or the transport's own re-initialization): drop the lists, restore the state. */
  const renew = (session: Session): void => {
    for (const cache of Object.values(caches)) cache.invalidate();
    // A 2026-07-28 session keeps no state on the server: each request carries it.
    if (session.modern === undefined) restore(core, requester, session);
  };
  const connection = createConnection({
    factory: options.transport,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    retry: { ...options.reconnect, retries: options.reconnect?.retries ?? 3 },
    open: (transport, signal) => openSession(transport, {
      clientInfo: options.info,
      capabilities: clientCapabilities(handlers()),
      protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      choice,
      ...memoryOf(transport),
      // A pinned 2026-07-28 has no fallback: its server/discover is the connect itself, bounded by connectTimeoutMs.
      probeTimeoutMs: choice === "auto" ? probeTimeout(options.probe) : options.connectTimeoutMs ?? 30_000,
      logger,
      register,
      sent: observe("out"),
      renewed: (peer) => {
        const session = connection.session;
        if (session?.peer !== peer) return;
        renew(session);
        emitter.emit("reconnected", { server: session.server });
      },
    }, signal),
    ready: (session, reconnect) => {
      if (session.modern === undefined) {
        if (reconnect) renew(session);
        else for (const cache of Object.values(caches)) cache.invalidate();
        return;
      }
      for (const cache of Object.values(caches)) cache.invalidate();
      const mine = createListener({
        send: (params, listenOptions, track) => core.send(RequestMethod.SubscriptionsListen, params, listenOptions, { track }),
        capabilities: session.server.capabilities,
        subscriptions: core.subscriptions,
        taskIds: taskOptions.listen ? tasks.ids : new Set(),
        logger,
      });
      listener = mine;
      void session.peer.closed.then(() => {
        mine.stop();
        if (listener === mine) listener = undefined;
      });
      void mine.refresh();
    },
    emitter,
    observer: options.observer,
    report,
  });

  const wires = new WeakMap<ModernContext, ModernWire<Extra>>();
  /** The wire of a modern session, built on its first request: the envelopes by method, the round sender. */
  const wireOf = (session: Session, modern: ModernContext): ModernWire<Extra> => {
    let wire = wires.get(modern);
    if (wire !== undefined) return wire;
    const envelopes = createEnvelopeCache(modern.version, options.info, (method) => withTaskExtension(modern.capabilities, session.server.capabilities, method));
    const closed = new AbortController();
    void session.peer.closed.then(() => closed.abort());
    wire = {
      maxRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? 0,
      closed: closed.signal,
      respond,
      relist: () => relistTools(core),
      send: (method, round, roundOptions, extra) => {
        const shared = envelopes.get(method, core.logLevel);
        // Object.assign, not `{ ...round, _meta }`: in V8 a literal that starts with a spread and
        // then adds a key builds a new hidden class per call (~1.3 µs and garbage, measured).
        const stamped: { [key: string]: unknown } = Object.assign({}, round);
        stamped._meta = round?._meta === undefined ? shared : Object.assign({}, shared, round._meta);
        return requester.send({ peer: session.peer, server: session.server.info, method, params: stamped, options: roundOptions, modern: true, tool: extra?.tool, isToolError: extra?.isToolError, track: extra?.track });
      },
    };
    wires.set(modern, wire);
    return wire;
  };

  /** Sends on a session: the capability check, then the request on its era's wire. Throws what the check throws. */
  function sendOn(session: Session, method: string, params: NotificationParamsRecord, requestOptions: RequestOptions | undefined, extra: Extra | undefined): Promise<unknown> {
    if (options.enforceCapabilities !== false) assertServerSupports(session.server.capabilities, method, session.server.info.name);
    const { modern } = session;
    if (modern === undefined) return requester.send({ peer: session.peer, server: session.server.info, method, params, options: requestOptions, tool: extra?.tool, isToolError: extra?.isToolError, track: extra?.track });
    return sendModern(wireOf(session, modern), method, params, requestOptions, extra);
  }

  const core: Core = {
    options, emitter, connection, logger, caches, tasks, taskOptions, respond,
    validator: sharedSchemaValidator(),
    maxPages: options.maxPages ?? 1000,
    subscriptions: new Set(),
    logLevel: undefined,
    get listener() {
      return listener;
    },
    send(method, params, requestOptions, extra) {
      // Connected: sent now, without waiting a turn for `ensure` (every request of a busy client goes here).
      const session = connection.state === "connected" ? connection.session : undefined;
      if (session === undefined) return connection.ensure(requestOptions?.signal).then((next) => sendOn(next, method, params, requestOptions, extra));
      try {
        return sendOn(session, method, params, requestOptions, extra);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    async notify(method, params) {
      const session = await connection.ensure();
      // Roots are asked for per request on the 2026-07-28 wire: there is nothing to announce.
      if (session.modern !== undefined && method === NotificationMethod.RootsListChanged) return;
      await session.peer.notify(method, params);
      observe("out")(method);
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
      if (typeof method !== "string" || method === "" || builtIn[method] !== undefined || custom.has(method)) {
        throw new TypeError(`handleNotification("${String(method)}"): the client handles this method already; use client.on(...) for built-in notifications`);
      }
      if (typeof handler !== "function") throw new TypeError("handleNotification(method, handler): handler must be a function");
      custom.set(method, handler);
      const peer = connection.session?.peer;
      const remove = peer === undefined ? undefined : installRoute(peer, method, handler, observe("in"));
      return () => {
        if (custom.get(method) === handler) custom.delete(method);
        remove?.();
      };
    },
  };
  return core;
}
