/**
 * The resources feature (MCP 2025-11-25, server/resources): static resources and URI
 * templates, `resources/list` and `resources/templates/list` (paginated, cached, decorated
 * by extensions), `resources/read` (-32002 for an unknown URI), per-session
 * `resources/subscribe`/`unsubscribe` with `notifications/resources/updated` to
 * subscribers only, and `notifications/resources/list_changed`.
 */
import { ErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import { NotificationMethod, RequestMethod, createResourceNotFoundError } from "@proto/mcp-protocol";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@proto/mcp-protocol";
import type { Completer } from "../completions/types";
import type { RequestContext } from "../context";
import type { Feature, FeatureHost } from "../feature";
import { createUriTemplateRouter } from "../uri-template/router";
import { toReadResult } from "./contents";
import { listWithTemplates } from "./listing";
import type { ResourceReadReturn } from "./contents";
import { createResourceRecord, createTemplateRecord } from "./registry";
import type { ResourceRecord, TemplateRecord } from "./registry";
import { createSubscriptions } from "./subscriptions";
import type { SubscriptionState } from "./subscriptions";
import type { ResourceDefinition, ResourceHandle, ResourceReader, ResourceTemplateDefinition, ResourceTemplateHandle, ResourceTemplateReader } from "./types";

/** URIs longer than this are not matched against templates (static resources still match exactly). */
export const MAX_TEMPLATE_URI_LENGTH = 1 << 20;

function paramsOf(params: JsonRpcParams | undefined): Record<string, unknown> {
  return params !== undefined && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
}

function uriOf(params: JsonRpcParams | undefined, method: string): string {
  const uri = paramsOf(params).uri;
  if (typeof uri !== "string" || uri === "") throw new JsonRpcError(ErrorCode.InvalidParams, `${method} needs params.uri, a non-empty string`);
  return uri;
}

interface Resolved {
  readonly mimeType: string | undefined;
  read(ctx: RequestContext): ResourceReadReturn | Promise<ResourceReadReturn>;
}

/** Creates the resources feature and the registry operations the server exposes. */
export function createResources(host: FeatureHost) {
  const statics = new Map<string, ResourceRecord>();
  const templates = new Map<string, TemplateRecord>();
  const router = createUriTemplateRouter<TemplateRecord>();
  const subscriptions = createSubscriptions();
  const notifies = (s: { serverCapabilities?: { resources?: { listChanged?: boolean } } | undefined }) =>
    s.serverCapabilities?.resources?.listChanged === true;
  const resourceList = host.createList<Resource>({
    kind: "resources",
    build: () => [...statics.values()].map((r) => r.descriptor),
    key: (r) => r.uri,
    notification: NotificationMethod.ResourceListChanged,
    notifies,
  });
  const templateList = host.createList<ResourceTemplate>({
    kind: "resourceTemplates",
    build: () => [...templates.values()].map((t) => t.descriptor),
    key: (t) => t.uriTemplate,
  });

  function resolve(uri: string): Resolved | undefined {
    const own = statics.get(uri);
    if (own !== undefined) return { mimeType: own.descriptor.mimeType, read: (ctx) => own.read(uri, ctx) };
    if (uri.length > MAX_TEMPLATE_URI_LENGTH) return undefined;
    const route = router.match(uri);
    if (route === undefined) return undefined;
    const record = route.value;
    return { mimeType: record.descriptor.mimeType, read: (ctx) => record.read(uri, route.variables, ctx) };
  }

  async function read(params: JsonRpcParams | undefined, ctx: RequestContext): Promise<ReadResourceResult> {
    const uri = uriOf(params, RequestMethod.ResourcesRead);
    const found = resolve(uri);
    if (found === undefined) throw createResourceNotFoundError(uri);
    const result = toReadResult(await found.read(ctx), uri, found.mimeType, `resource "${uri}" reader`);
    if (result === undefined) throw createResourceNotFoundError(uri);
    return result;
  }

  const feature: Feature<SubscriptionState> = {
    name: "resources",
    capabilities: () => (statics.size + templates.size > 0 ? { resources: { subscribe: true, listChanged: true } } : undefined),
    createState: () => new Set<string>(),
    closeState: (state, session) => subscriptions.forget(session, state),
    requests: {
      [RequestMethod.ResourcesList]: (params, ctx) => {
        const cursor = paramsOf(params).cursor;
        const listers = [...templates.values()].flatMap((t) => (t.list === undefined ? [] : [{ uriTemplate: t.descriptor.uriTemplate, list: t.list }]));
        if (listers.length > 0) return listWithTemplates(resourceList.items(ctx.session), listers, cursor, host.pageSize, ctx);
        const page = resourceList.page(cursor, ctx.session);
        return page.nextCursor === undefined ? { resources: page.items } : { resources: page.items, nextCursor: page.nextCursor };
      },
      [RequestMethod.ResourceTemplatesList]: (params, ctx) => {
        const page = templateList.page(paramsOf(params).cursor, ctx.session);
        return page.nextCursor === undefined
          ? { resourceTemplates: page.items }
          : { resourceTemplates: page.items, nextCursor: page.nextCursor };
      },
      [RequestMethod.ResourcesRead]: read,
      [RequestMethod.ResourcesSubscribe]: (params, ctx, state) => {
        const uri = uriOf(params, RequestMethod.ResourcesSubscribe);
        if (resolve(uri) === undefined) throw createResourceNotFoundError(uri);
        subscriptions.add(ctx.session, state, uri);
        return {};
      },
      [RequestMethod.ResourcesUnsubscribe]: (params, ctx, state) => {
        subscriptions.remove(ctx.session, state, uriOf(params, RequestMethod.ResourcesUnsubscribe));
        return {};
      },
    },
  };

  function updated(uri: string): number {
    const sessions = subscriptions.subscribers(uri);
    for (const session of sessions) {
      session.notify(NotificationMethod.ResourceUpdated, { uri }).catch((error: unknown) => {
        host.logger.warn(`notifications/resources/updated for ${uri} could not be sent`, error);
      });
    }
    return sessions.length;
  }

  function removeResource(uri: string): boolean {
    if (!statics.delete(uri)) return false;
    resourceList.invalidate();
    return true;
  }

  function removeTemplate(uriTemplate: string): boolean {
    if (!templates.delete(uriTemplate)) return false;
    router.remove(uriTemplate);
    templateList.invalidate();
    resourceList.invalidate();
    return true;
  }

  function addResource(def: ResourceDefinition, reader: ResourceReader): ResourceHandle {
    const record = createResourceRecord(def, reader);
    const uri = record.descriptor.uri;
    if (statics.has(uri)) throw new TypeError(`resource("${uri}"): a resource with this URI is already registered; remove it first`);
    statics.set(uri, record);
    resourceList.invalidate();
    const mine = (): boolean => statics.get(uri) === record;
    return { uri, updated: () => void updated(uri), remove: () => void (mine() && removeResource(uri)) };
  }

  function addTemplate<const T extends string>(def: ResourceTemplateDefinition<T>, reader: ResourceTemplateReader<T>): ResourceTemplateHandle {
    const record = createTemplateRecord(def as ResourceTemplateDefinition, reader as unknown as ResourceTemplateReader);
    const key = record.descriptor.uriTemplate;
    if (templates.has(key)) throw new TypeError(`resourceTemplate("${key}"): this template is already registered; remove it first`);
    templates.set(key, record);
    router.add(record.template, record);
    templateList.invalidate();
    resourceList.invalidate();
    const mine = (): boolean => templates.get(key) === record;
    return { uriTemplate: key, remove: () => void (mine() && removeTemplate(key)) };
  }

  return {
    feature,
    addResource,
    addTemplate,
    removeResource,
    removeTemplate,
    /** Sends `notifications/resources/updated` to the subscribers of `uri`; returns how many. */
    updated,
    /** The completer of a template's variable, for `completion/complete`; `null` when no such template exists. */
    completer: (uriTemplate: string, variable: string): Completer | undefined | null => {
      const record = templates.get(uriTemplate);
      return record === undefined ? null : record.complete[variable];
    },
    /** True when some template has a completer. */
    completes: (): boolean => [...templates.values()].some((t) => Object.keys(t.complete).length > 0),
  };
}
