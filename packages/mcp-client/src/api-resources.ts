/**
 * Resources on the client side (MCP 2025-11-25, server/resources): lists and templates
 * (one page, an iterator, a cached full list), read, and subscriptions that survive a
 * reconnect (on 2026-07-28, carried by the session's `subscriptions/listen` stream).
 */
import { RequestMethod, type ListResourcesResult, type ListResourceTemplatesResult, type ReadResourceResult } from "@proto/mcp-protocol";
import type { Client } from "./client-types";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import { assertServerSupports } from "./capability-check";
import { collect, paginate } from "./lists";

type ResourcesApi = Pick<
  Client,
  "listResources" | "resources" | "listAllResources" | "listResourceTemplates" | "resourceTemplates" | "listAllResourceTemplates" | "readResource" | "subscribe" | "unsubscribe"
>;

function cursorParams(cursor: string | undefined): { cursor: string } | undefined {
  if (cursor !== undefined && typeof cursor !== "string") throw new TypeError("cursor must be a string (the previous page's nextCursor)");
  return cursor === undefined ? undefined : { cursor };
}

function checkUri(method: string, uri: unknown): asserts uri is string {
  if (typeof uri !== "string" || uri === "") throw new TypeError(`${method}(uri): uri must be a non-empty string`);
}

/** Builds the resource methods of a client. */
export function createResourcesApi(core: Core): ResourcesApi {
  const listResources = (cursor?: string, options?: RequestOptions) =>
    core.send(RequestMethod.ResourcesList, cursorParams(cursor), options) as Promise<ListResourcesResult>;
  const listResourceTemplates = (cursor?: string, options?: RequestOptions) =>
    core.send(RequestMethod.ResourceTemplatesList, cursorParams(cursor), options) as Promise<ListResourceTemplatesResult>;
  const resources = (options?: RequestOptions) =>
    paginate(RequestMethod.ResourcesList, async (cursor) => {
      const page = await listResources(cursor, options);
      return { items: page.resources, nextCursor: page.nextCursor };
    }, core.maxPages);
  const resourceTemplates = (options?: RequestOptions) =>
    paginate(RequestMethod.ResourceTemplatesList, async (cursor) => {
      const page = await listResourceTemplates(cursor, options);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor };
    }, core.maxPages);

  return {
    listResources,
    resources,
    async listAllResources(options) {
      if (options?.refresh) core.caches.resources.invalidate();
      return core.caches.resources.get(() => collect(resources(options)));
    },
    listResourceTemplates,
    resourceTemplates,
    async listAllResourceTemplates(options) {
      if (options?.refresh) core.caches.templates.invalidate();
      return core.caches.templates.get(() => collect(resourceTemplates(options)));
    },
    async readResource(uri, options) {
      checkUri("readResource", uri);
      return core.send(RequestMethod.ResourcesRead, { uri }, options) as Promise<ReadResourceResult>;
    },
    async subscribe(uri, options) {
      checkUri("subscribe", uri);
      const session = await core.connection.ensure(options?.signal);
      if (session.modern === undefined) {
        await core.send(RequestMethod.ResourcesSubscribe, { uri }, options);
        core.subscriptions.add(uri);
        return;
      }
      // 2026-07-28: the URI joins the listen stream, which is reopened with it.
      if (core.options.enforceCapabilities !== false) assertServerSupports(session.server.capabilities, RequestMethod.ResourcesSubscribe, session.server.info.name);
      core.subscriptions.add(uri);
      await core.listener?.refresh();
    },
    async unsubscribe(uri, options) {
      checkUri("unsubscribe", uri);
      core.subscriptions.delete(uri);
      const session = await core.connection.ensure(options?.signal);
      if (session.modern === undefined) await core.send(RequestMethod.ResourcesUnsubscribe, { uri }, options);
      else await core.listener?.refresh();
    },
  };
}
