/**
 * One child server behind the gateway: its starts (a fresh client each time), its lists, its
 * crashes and restarts with backoff, and, for lazy children, the idle stop. A crash fails the
 * child's pending requests at once (the transport rejects them with the exit code and stderr
 * tail); cached lists stay exposed while it restarts; `maxCrashes` within `windowMs` mark it
 * `failed` and its lists are removed. A request is never retried.
 */
import type { Logger, Transport } from "@proto/jsonrpc";
import type { Client } from "@proto/mcp-client";
import type { LoggingLevel } from "@proto/mcp-protocol";
import { backoffDelay } from "@proto/mcp-client";
import { createChildClient } from "./child-client";
import type { Relay } from "./child-client";
import { EMPTY_SNAPSHOT, takeSnapshot } from "./snapshot";
import type { ChildSnapshot, ListKind } from "./snapshot";
import type { ChildConfig } from "./types";

/** Where a child stands. */
export type ChildState = "idle" | "starting" | "ready" | "restarting" | "stopped" | "failed" | "disabled";

/** Settings resolved from the config and the gateway's options. */
export interface ChildSettings {
  readonly gateway: { readonly name: string; readonly version: string };
  readonly transport: () => Transport | Promise<Transport>;
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
  readonly startupTimeoutMs: number;
  readonly protocol: "auto" | "2026-07-28" | "2025-11-25";
  readonly idleTimeoutMs: number;
  readonly restart: { readonly initialDelayMs: number; readonly maxDelayMs: number; readonly maxCrashes: number; readonly windowMs: number };
}

/** What a child tells its pool. */
export interface ChildHooks {
  readonly relay: Relay;
  /** The exposed lists may have changed (new snapshot, or the child failed). */
  changed(): void;
  log(params: { level: string; logger?: string; data: unknown }): void;
  /** The level the upstream last set with `logging/setLevel`, if any. */
  logLevel(): LoggingLevel | undefined;
  resourceUpdated(uri: string): void;
  /** The child URIs upstreams still listen to: subscribed again after each (re)start. */
  subscriptions(): readonly string[];
  readonly logger: Logger;
}

/** One child at run time. */
export interface ChildRuntime {
  readonly name: string;
  readonly config: ChildConfig;
  readonly state: ChildState;
  readonly snapshot: ChildSnapshot;
  /** Why the last start failed or the child failed, for status and errors. */
  readonly lastError: unknown;
  /** Restarts since the last successful start. */
  readonly attempt: number;
  /** Starts it when idle or stopped; resolves once ready, rejects when the start fails. */
  start(): Promise<void>;
  /** Runs `op` with a started client (starting a lazy child first); tracks in-flight work for idle stops. */
  run<T>(op: (client: Client) => Promise<T>): Promise<T>;
  /** The last frame fault seen since `since` (performance.now()), if any. */
  frameFaultSince(since: number): string | undefined;
  close(): Promise<void>;
}

/** Creates a child runtime; nothing runs until `start()`. */
export function createChild(name: string, config: ChildConfig, settings: ChildSettings, hooks: ChildHooks): ChildRuntime {
  let state: ChildState = config.disabled === true ? "disabled" : "idle";
  let snapshot = EMPTY_SNAPSHOT;
  let client: Client | undefined;
  let starting: Promise<void> | undefined;
  let lastError: unknown;
  let fault: { at: number; text: string } | undefined;
  let inFlight = 0;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let restartTimer: ReturnType<typeof setTimeout> | undefined;
  let relist: ReturnType<typeof setTimeout> | undefined;
  const pendingKinds = new Set<ListKind>();
  const crashes: number[] = [];
  let closed = false;

  function scheduleRelist(kind: ListKind, owner: Client): void {
    pendingKinds.add(kind);
    if (relist !== undefined) return;
    relist = setTimeout(() => {
      relist = undefined;
      const kinds = new Set(pendingKinds);
      pendingKinds.clear();
      if (owner !== client) return;
      takeSnapshot(owner, snapshot, kinds).then(
        (next) => {
          if (owner !== client) return;
          snapshot = next;
          hooks.changed();
        },
        (error: unknown) => hooks.logger.warn(`gateway: re-listing child "${name}" failed`, error),
      );
    }, 200);
  }

  function onDisconnected(owner: Client, reason: unknown): void {
    if (owner !== client || closed) return;
    client = undefined;
    recordCrash(reason);
  }

  /** Counts a crash (or a failed start) and schedules the next start, or marks the child failed. */
  function recordCrash(reason: unknown): void {
    lastError = reason;
    const now = performance.now();
    crashes.push(now);
    while (crashes.length > 0 && (crashes[0] as number) < now - settings.restart.windowMs) crashes.shift();
    if (crashes.length >= settings.restart.maxCrashes) {
      state = "failed";
      snapshot = EMPTY_SNAPSHOT;
      hooks.logger.warn(`gateway: child "${name}" failed ${crashes.length} times within ${settings.restart.windowMs} ms; it is marked failed and its tools are removed`, reason);
      hooks.changed();
      return;
    }
    state = "restarting";
    const delay = backoffDelay(crashes.length, { initialDelayMs: settings.restart.initialDelayMs, maxDelayMs: settings.restart.maxDelayMs });
    hooks.logger.warn(`gateway: child "${name}" is down; starting it again in ${delay} ms (${crashes.length}/${settings.restart.maxCrashes})`, reason);
    const next = new Promise<void>((resolve, reject) => {
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        connect().then(resolve, reject);
      }, delay);
    });
    next.catch(() => {});
    starting = next;
    void next.finally(() => {
      if (starting === next) starting = undefined;
    }).catch(() => {});
  }

  async function connect(): Promise<void> {
    const next = createChildClient({
      child: name,
      gateway: settings.gateway,
      transport: settings.transport,
      startupTimeoutMs: settings.startupTimeoutMs,
      protocol: settings.protocol,
      timeoutMs: settings.timeoutMs,
      maxTotalMs: settings.maxTotalMs,
      relay: hooks.relay,
      frameFault: (text) => (fault = { at: performance.now(), text }),
      logger: hooks.logger,
    });
    client = next;
    if (state !== "restarting") state = "starting";
    next.on("toolsChanged", () => scheduleRelist("tools", next));
    next.on("promptsChanged", () => scheduleRelist("prompts", next));
    next.on("resourcesChanged", () => scheduleRelist("resources", next));
    next.on("log", (params) => hooks.log(params));
    next.on("resourceUpdated", ({ uri }) => hooks.resourceUpdated(uri));
    next.on("disconnected", ({ reason, expected }) => {
      if (!expected) onDisconnected(next, reason);
    });
    try {
      await next.connect();
      await askForLogs(next);
      for (const uri of hooks.subscriptions()) await next.subscribe(uri).catch((error: unknown) => hooks.logger.warn(`gateway: child "${name}" refused a subscription to ${uri.slice(0, 200)}`, error));
      const taken = await takeSnapshot(next, snapshot);
      if (client !== next) throw lastError ?? new Error(`child "${name}" went away while starting`);
      snapshot = taken;
      state = "ready";
      hooks.changed();
      armIdle();
    } catch (error) {
      if (client === next && !closed) {
        client = undefined;
        void next.close().catch(() => {});
        recordCrash(error);
      }
      throw error;
    }
  }

  /**
   * 2026-07-28 servers log only on requests that carry a level (`_meta` envelope), and
   * 2025-11-25 servers log everything until `logging/setLevel`: the child is asked for the
   * upstream's level, or "debug" until the upstream set one, so its logs keep flowing either way.
   */
  async function askForLogs(owner: Client): Promise<void> {
    if (owner.server?.capabilities.logging === undefined) return;
    await owner.setLoggingLevel(hooks.logLevel() ?? "debug").catch((error: unknown) => hooks.logger.warn(`gateway: child "${name}" refused logging/setLevel`, error));
  }

  function armIdle(): void {
    if (config.lifecycle !== "lazy" || inFlight > 0 || closed) return;
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (inFlight > 0 || state !== "ready" || client === undefined) return;
      const current = client;
      client = undefined;
      state = "stopped";
      void current.close();
    }, settings.idleTimeoutMs);
  }

  /** The end of a `run`: the in-flight count, and the idle stop of a lazy child. */
  function settled<T>(value: T): T {
    inFlight--;
    armIdle();
    return value;
  }

  function failed(error: unknown): never {
    inFlight--;
    armIdle();
    throw error;
  }

  function start(): Promise<void> {
    if (closed) return Promise.reject(new Error(`child "${name}" is closed`));
    if (state === "disabled") return Promise.reject(new Error(`child "${name}" is disabled in the config`));
    if (state === "ready") return Promise.resolve();
    if (starting !== undefined) return starting;
    if (state === "failed") return Promise.reject(lastError ?? new Error(`child "${name}" failed`));
    const first = connect();
    starting = first;
    void first.finally(() => {
      if (starting === first) starting = undefined;
    }).catch(() => {});
    return first;
  }

  return {
    name,
    config,
    get state() {
      return state;
    },
    get snapshot() {
      return snapshot;
    },
    get lastError() {
      return lastError;
    },
    get attempt() {
      return crashes.length;
    },
    start,
    run<T>(op: (client: Client) => Promise<T>): Promise<T> {
      inFlight++;
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      // Every forwarded request runs through here: a ready child's costs no extra promise
      // layer of its own and no closure per call (`settled` and `failed` are the child's).
      let running: Promise<T>;
      try {
        running = state === "ready" && client !== undefined ? op(client) : start().then(() => op(client as Client));
      } catch (error) {
        running = Promise.reject(error);
      }
      return running.then(settled, failed);
    },
    frameFaultSince: (since) => (fault !== undefined && fault.at >= since ? fault.text : undefined),
    async close() {
      closed = true;
      for (const timer of [idleTimer, restartTimer, relist]) if (timer !== undefined) clearTimeout(timer);
      const current = client;
      client = undefined;
      state = config.disabled === true ? "disabled" : "stopped";
      await current?.close();
    },
  };
}
