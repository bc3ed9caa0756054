/**
 * The server notifications the client handles itself (MCP 2025-11-25: progress,
 * `list_changed` for tools, resources and prompts, `resources/updated`, logging messages,
 * `elicitation/complete`), each turned into cache invalidation and an event, and the
 * installation of handlers on a peer with the observer's notification hook.
 */
import type { Logger, Peer } from "@proto/jsonrpc";
import { LOGGING_LEVELS, NotificationMethod, type Prompt, type Resource, type ResourceTemplate, type Tool } from "@proto/mcp-protocol";
import type { Emitter } from "./emitter";
import type { ClientEvents } from "./events";
import type { ListCache } from "./lists";
import type { Requester } from "./requester";

/** Notification params as handlers see them (positional params are dropped). */
export type NotificationParamsRecord = { readonly [key: string]: unknown } | undefined;

/** A handler of one notification method. */
export type NotificationRoute = (params: NotificationParamsRecord) => void;

/** The cached lists a client keeps. */
export interface ListCaches {
  readonly tools: ListCache<Tool>;
  readonly resources: ListCache<Resource>;
  readonly templates: ListCache<ResourceTemplate>;
  readonly prompts: ListCache<Prompt>;
}

/** The handlers of the notifications the client handles itself, by method. */
export function builtInNotifications(requester: Requester, caches: ListCaches, emitter: Emitter<ClientEvents>, logger: Logger): { readonly [method: string]: NotificationRoute } {
  const as = <T>(params: NotificationParamsRecord): T => params as unknown as T;
  return {
    [NotificationMethod.Progress]: (p) => requester.progress(p),
    [NotificationMethod.ToolListChanged]: () => {
      caches.tools.invalidate();
      emitter.emit("toolsChanged", undefined);
    },
    [NotificationMethod.ResourceListChanged]: () => {
      caches.resources.invalidate();
      caches.templates.invalidate();
      emitter.emit("resourcesChanged", undefined);
    },
    [NotificationMethod.PromptListChanged]: () => {
      caches.prompts.invalidate();
      emitter.emit("promptsChanged", undefined);
    },
    [NotificationMethod.ResourceUpdated]: (p) => {
      if (typeof p?.uri === "string") emitter.emit("resourceUpdated", as(p));
      else logger.warn("Ignored notifications/resources/updated without a string `uri`", p);
    },
    [NotificationMethod.Message]: (p) => {
      if ((LOGGING_LEVELS as readonly unknown[]).includes(p?.level)) emitter.emit("log", as(p));
      else logger.warn("Ignored notifications/message without a valid `level`", p);
    },
    [NotificationMethod.ElicitationComplete]: (p) => {
      if (typeof p?.elicitationId === "string") emitter.emit("elicitationComplete", as(p));
      else logger.warn("Ignored notifications/elicitation/complete without a string `elicitationId`", p);
    },
  };
}

/** Installs `route` for `method` on `peer`, telling `observe` about each arrival; returns the uninstaller. */
export function installRoute(peer: Peer, method: string, route: NotificationRoute, observe: (method: string) => void): () => void {
  return peer.handleNotification(method, (params) => {
    observe(method);
    route(Array.isArray(params) ? undefined : (params as NotificationParamsRecord));
  });
}
