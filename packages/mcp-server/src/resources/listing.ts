/**
 * `resources/list` when templates enumerate their resources (a template's `list`): the cached
 * static list as the session sees it, followed by what each listing template returns now,
 * paginated together with the same keyset cursors (by URI; a static resource wins a URI both
 * name). Without listing templates, `resources/list` is served from the cache alone.
 */
import type { ListResourcesResult, Resource } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import { createPageSource, paginate } from "../pagination";
import { checkIcons, checkText, pick } from "./checks";
import type { ResourceDefinition } from "./types";

/** Lists the resources of one template now. */
export type ResourceLister = (ctx: RequestContext) => readonly ResourceDefinition[] | Promise<readonly ResourceDefinition[]>;

const FIELDS = ["uri", "name", "title", "description", "mimeType", "size", "annotations", "icons", "_meta"] as const;

function descriptor(item: ResourceDefinition, where: string): Resource {
  if (typeof item !== "object" || item === null) throw new TypeError(`${where}: list() must return resource descriptors { uri, name, ... }`);
  checkText(item.uri, "each listed uri", where);
  checkText(item.name, "each listed name", where);
  checkIcons(item.icons, where);
  return pick(item, FIELDS);
}

/** One page of static plus listed resources. Throws -32602 for a cursor that no longer points anywhere. */
export async function listWithTemplates(
  statics: readonly Resource[],
  listers: readonly { readonly uriTemplate: string; readonly list: ResourceLister }[],
  cursor: unknown,
  pageSize: number,
  ctx: RequestContext,
): Promise<ListResourcesResult> {
  const seen = new Set(statics.map((r) => r.uri));
  const items = [...statics];
  const listed = await Promise.all(listers.map((l) => l.list(ctx)));
  listed.forEach((list, i) => {
    const where = `resourceTemplate("${listers[i]!.uriTemplate}")`;
    if (!Array.isArray(list)) throw new TypeError(`${where}: list() must return an array`);
    for (const item of list as readonly ResourceDefinition[]) {
      const resource = descriptor(item, where);
      if (seen.has(resource.uri)) continue;
      seen.add(resource.uri);
      items.push(resource);
    }
  });
  const page = paginate(createPageSource(items, (r) => r.uri), cursor, pageSize);
  return page.nextCursor === undefined ? { resources: page.items } : { resources: page.items, nextCursor: page.nextCursor };
}
