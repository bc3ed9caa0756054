/**
 * The resources feature (MCP 2025-11-25, server/resources): static resources and URI
 * templates, `resources/list` and `resources/templates/list` (paginated, cached, decorated
 * by extensions), `resources/read` (-32002 for an unknown URI), per-session
 * `resources/subscribe`/`unsubscribe` with `notifications/resources/updated` to
 * subscribers only, and `notifications/resources/list_changed`.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import { NotificationMethod, RequestMethod, createResourceNotFoundError } from "@proto/mcp-protocol";
import type { ReadResourceResult } from "@proto/mcp-protocol";
import type { Completer } from "../completions/types";
import type { RequestContext } from "../context";
import type { Feature, FeatureHost } from "../feature";
import type { Page } from "../pagination";
import { negotiatedOf } from "../session-context";
import { toReadResult } from "./contents";
import { listWithTemplates } from "./listing";
import { createResourceStore } from "./store";
import type { ResourceStore } from "./store";
import { createSubscriptions } from "./subscriptions";
import type { Subscriptions, SubscriptionState } from "./subscriptions";
import type {
  ResourceDefinition,
  ResourceHandle,
  ResourceReader,
  ResourceTemplateDefinition,
  ResourceTemplateHandle,
  ResourceTemplateReader,
} from "./types";

function paramsOf(params: JsonRpcParams | undefined): Record<string, unknown> {
  return params !== undefined && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}

function uriOf(params: JsonRpcParams | undefined, method: string): string {
  const uri = paramsOf(params).uri;
  if (typeof uri !== "string" || uri === "") throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `${method} needs params.uri, a non-empty string`);
  return uri;
}

function pageResult<K extends string, T>(key: K, page: Page<T>): { [P in K]: readonly T[] } & { nextCursor?: string } {
  const result = { [key]: page.items } as { [P in K]: readonly T[] } & { nextCursor?: string };
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
  return result;
}

async function read(store: ResourceStore, params: JsonRpcParams | undefined, ctx: RequestContext): Promise<ReadResourceResult> {
  const uri = uriOf(params, RequestMethod.ResourcesRead);
  const found = store.resolve(uri);
  if (found === undefined) throw createResourceNotFoundError(uri);
  const result = toReadResult(await found.read(ctx), uri, found.mimeType, `resource "${uri}" reader`);
  if (result === undefined) throw createResourceNotFoundError(uri);
  return result;
}

function createFeature(host: FeatureHost, store: ResourceStore, subscriptions: Subscriptions): Feature<SubscriptionState> {
  return {
    name: "resources",
    capabilities: () => (store.size > 0 ? { resources: { subscribe: true, listChanged: true } } : undefined),
    createState: () => new Set<string>(),
    closeState: (state, session) => subscriptions.forget(session, state),
    snapshot: (state) => (state.size === 0 ? undefined : [...state]),
    restore(state, value, session) {
      const uris = value === undefined ? [] : value;
      if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === "string")) throw new TypeError("shared resource subscriptions must be an array of URIs");
      for (const uri of [...state]) if (!uris.includes(uri)) subscriptions.remove(session, state, uri);
      for (const uri of uris as string[]) subscriptions.add(session, state, uri);
    },
    requests: {
      [RequestMethod.ResourcesList]: (params, ctx) => {
        const cursor = paramsOf(params).cursor;
        const listers = store.listers();
        if (listers.length > 0) return listWithTemplates(store.resources.items(negotiatedOf(ctx)), listers, cursor, host.pageSize, ctx);
        return pageResult("resources", store.resources.page(cursor, negotiatedOf(ctx)));
      },
      [RequestMethod.ResourceTemplatesList]: (params, ctx) => pageResult("resourceTemplates", store.templates.page(paramsOf(params).cursor, negotiatedOf(ctx))),
      [RequestMethod.ResourcesRead]: (params, ctx) => read(store, params, ctx),
      [RequestMethod.ResourcesSubscribe]: (params, ctx, state) => {
        const uri = uriOf(params, RequestMethod.ResourcesSubscribe);
        if (store.resolve(uri) === undefined) throw createResourceNotFoundError(uri);
        subscriptions.add(ctx.session, state, uri);
        return {};
      },
      [RequestMethod.ResourcesUnsubscribe]: (params, ctx, state) => {
        subscriptions.remove(ctx.session, state, uriOf(params, RequestMethod.ResourcesUnsubscribe));
        return {};
      },
    },
  };
}

/** Creates the resources feature and the registry operations the server exposes. */
export function createResources(host: FeatureHost) {
  const store = createResourceStore(host);
  const subscriptions = createSubscriptions();

  function updated(uri: string): number {
    host.stream?.(NotificationMethod.ResourceUpdated, { uri });
    const sessions = subscriptions.subscribers(uri);
    for (const session of sessions) {
      session.notify(NotificationMethod.ResourceUpdated, { uri }).catch((error: unknown) => {
        host.logger.warn(`notifications/resources/updated for ${uri} could not be sent`, error);
      });
    }
    return sessions.length;
  }

  return {
    feature: createFeature(host, store, subscriptions),
    addResource(def: ResourceDefinition, reader: ResourceReader): ResourceHandle {
      const record = store.addResource(def, reader);
      const uri = record.descriptor.uri;
      return { uri, updated: () => void updated(uri), remove: () => void store.removeResource(uri, record) };
    },
    addTemplate<const T extends string>(def: ResourceTemplateDefinition<T>, reader: ResourceTemplateReader<T>): ResourceTemplateHandle {
      const record = store.addTemplate(def as ResourceTemplateDefinition, reader as unknown as ResourceTemplateReader);
      const key = record.descriptor.uriTemplate;
      return { uriTemplate: key, remove: () => void store.removeTemplate(key, record) };
    },
    removeResource: (uri: string): boolean => store.removeResource(uri),
    removeTemplate: (uriTemplate: string): boolean => store.removeTemplate(uriTemplate),
    /** Sends `notifications/resources/updated` to the subscribers of `uri`; returns how many. */
    updated,
    /** The completer of a template's variable, for `completion/complete`; `null` when no such template exists. */
    completer: (uriTemplate: string, variable: string): Completer | undefined | null => {
      const record = store.template(uriTemplate);
      return record === undefined ? null : record.complete[variable];
    },
    /** True when some template has a completer. */
    completes: (): boolean => store.completes(),
  };
}
