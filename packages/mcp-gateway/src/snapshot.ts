/**
 * What one child serves, as listed through its client: tools, prompts, resources, templates,
 * and which views its tools link to that it did not list (servers MAY omit views from
 * `resources/list`; the gateway probes them with `resources/read` so a working link is kept
 * and a broken one removed).
 */
import type { Client } from "@proto/mcp-client";
import type { Prompt, Resource, ResourceTemplate, Tool } from "@proto/mcp-protocol";
import { readToolUi } from "@proto/mcp-apps";

/** One child's lists. */
export interface ChildSnapshot {
  readonly tools: readonly Tool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  /** Linked `ui://` views the child did not list but serves. */
  readonly unlistedViews: ReadonlySet<string>;
  /** Whether the child advertises `resources.subscribe` and `logging`, `completions`. */
  readonly subscribe: boolean;
  readonly logging: boolean;
  readonly completions: boolean;
}

/** A snapshot of nothing (a child that is not up). */
export const EMPTY_SNAPSHOT: ChildSnapshot = {
  tools: [],
  prompts: [],
  resources: [],
  templates: [],
  unlistedViews: new Set(),
  subscribe: false,
  logging: false,
  completions: false,
};

/** Which lists to fetch again. */
export type ListKind = "tools" | "prompts" | "resources";

async function probeViews(client: Client, tools: readonly Tool[], resources: readonly Resource[]): Promise<Set<string>> {
  const listed = new Set(resources.map((r) => r.uri));
  const linked = new Set<string>();
  for (const tool of tools) {
    const uri = readToolUi(tool._meta)?.resourceUri;
    if (uri !== undefined && !listed.has(uri)) linked.add(uri);
  }
  const found = new Set<string>();
  await Promise.all(
    [...linked].map(async (uri) => {
      try {
        const read = await client.readResource(uri);
        if (read.contents.length > 0) found.add(uri);
      } catch {
        // Not served: the link is broken and will be removed (with a warning).
      }
    }),
  );
  return found;
}

/** Lists what `client` serves (only the lists its capabilities declare); `kinds` limits which lists are fetched again. */
export async function takeSnapshot(client: Client, previous: ChildSnapshot = EMPTY_SNAPSHOT, kinds?: ReadonlySet<ListKind>): Promise<ChildSnapshot> {
  const caps = client.server?.capabilities ?? {};
  const want = (kind: ListKind) => kinds === undefined || kinds.has(kind);
  const [tools, prompts, resources, templates] = await Promise.all([
    !want("tools") ? previous.tools : caps.tools ? client.listAllTools({ refresh: true }) : [],
    !want("prompts") ? previous.prompts : caps.prompts ? client.listAllPrompts({ refresh: true }) : [],
    !want("resources") ? previous.resources : caps.resources ? client.listAllResources({ refresh: true }) : [],
    !want("resources") ? previous.templates : caps.resources ? client.listAllResourceTemplates({ refresh: true }) : [],
  ]);
  const unlistedViews = want("tools") || want("resources") ? (caps.resources ? await probeViews(client, tools, resources) : new Set<string>()) : previous.unlistedViews;
  return {
    tools,
    prompts,
    resources,
    templates,
    unlistedViews,
    subscribe: caps.resources?.subscribe === true,
    logging: caps.logging !== undefined,
    completions: caps.completions !== undefined,
  };
}
