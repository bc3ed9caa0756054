/**
 * The gateway's routing tables, built from the children's snapshots: exposed tools and
 * prompts (`<child>__<name>`), resources and templates under namespaced URIs (`ui://` through
 * the `@proto/mcp-apps` gateway URIs, others as `<child>+<uri>`), and the reverse maps that
 * route requests back. Pure: the same snapshots give the same catalog, in any child order.
 */
import type { Meta, Prompt, Resource, ResourceTemplate, Tool } from "@proto/mcp-protocol";
import { dropUiDomain, LEGACY_RESOURCE_URI_KEY, readToolUi, UI_META_KEY, withoutUiMeta } from "@proto/mcp-apps";
import type { NamePredicate } from "./filters";
import { exposeNames } from "./naming";
import type { NameStyle } from "./naming";
import type { ChildSnapshot } from "./snapshot";
import { createUriMapper } from "./uris";

/** One child as the catalog sees it. */
export interface CatalogChild {
  readonly name: string;
  readonly snapshot: ChildSnapshot;
  readonly filters: { readonly tools: NamePredicate; readonly prompts: NamePredicate; readonly resources: NamePredicate };
}

/** Naming settings. */
export interface CatalogOptions {
  readonly gateway: string;
  readonly separator: string;
  readonly style: NameStyle;
}

/** An exposed tool: `tool` is what UI sessions see; `plain` what other sessions see (undefined: hidden from them). */
export interface ToolEntry {
  readonly exposed: string;
  readonly child: string;
  readonly name: string;
  readonly tool: Tool;
  readonly plain: Tool | undefined;
  readonly appOnly: boolean;
}

/** An exposed prompt. */
export interface PromptEntry {
  readonly exposed: string;
  readonly child: string;
  readonly name: string;
  readonly prompt: Prompt;
}

/** An exposed resource (`ui`: a view, listed to UI sessions only). */
export interface ResourceEntry {
  readonly exposed: string;
  readonly child: string;
  readonly uri: string;
  readonly resource: Resource;
  readonly ui: boolean;
}

/** An exposed template. */
export interface TemplateEntry {
  readonly child: string;
  readonly template: ResourceTemplate;
}

/** The whole routing table. */
export interface Catalog {
  readonly tools: readonly ToolEntry[];
  readonly prompts: readonly PromptEntry[];
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly TemplateEntry[];
  readonly toolByName: ReadonlyMap<string, ToolEntry>;
  readonly toolsByOriginal: ReadonlyMap<string, readonly ToolEntry[]>;
  readonly promptByName: ReadonlyMap<string, PromptEntry>;
  readonly promptsByOriginal: ReadonlyMap<string, readonly PromptEntry[]>;
  /** Every linked or listed view and listed resource, by child URI: for raw child URIs sent by views. */
  readonly childsByUri: ReadonlyMap<string, readonly string[]>;
  /** Names that were not exposed as `<child><sep><name>` (too long, or colliding after sanitising). */
  readonly renames: readonly { readonly child: string; readonly name: string; readonly exposed: string }[];
  readonly warnings: readonly string[];
}

function firstWins<T>(items: readonly T[], key: (item: T) => string, child: string, kind: string, warnings: string[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (!seen.has(k)) return seen.add(k);
    warnings.push(`child "${child}" lists ${kind} "${k.slice(0, 200)}" twice; the first one is used`);
    return false;
  });
}

function exposable(toExposed: (uri: string) => string, uri: string): boolean {
  try {
    toExposed(uri);
    return true;
  } catch {
    return false;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function exposeTool(tool: Tool, exposed: string, meta: Meta | undefined, linked: string | undefined, toExposed: (uri: string) => string): Omit<ToolEntry, "child" | "name" | "exposed"> {
  const ui = readToolUi(tool._meta);
  const rest = withoutUiMeta(meta);
  const appOnly = ui !== undefined && !ui.visibility.includes("model");
  const base = { ...tool, name: exposed };
  delete (base as { _meta?: Meta })._meta;
  const plain = appOnly ? undefined : rest === undefined ? base : { ...base, _meta: rest };
  if (ui === undefined) return { tool: plain as Tool, plain, appOnly };
  const uiMeta = linked === undefined ? { visibility: [...ui.visibility] } : { resourceUri: toExposed(linked), visibility: [...ui.visibility] };
  const legacy = linked !== undefined && tool._meta?.[LEGACY_RESOURCE_URI_KEY] !== undefined ? { [LEGACY_RESOURCE_URI_KEY]: toExposed(linked) } : {};
  return { tool: { ...base, _meta: { ...rest, [UI_META_KEY]: uiMeta, ...legacy } }, plain, appOnly };
}

function addTools(c: CatalogChild, options: CatalogOptions, out: Builder): void {
  const map = createUriMapper(options.gateway, c.name);
  const tools = firstWins(c.snapshot.tools.filter((t) => c.filters.tools(t.name)), (t) => t.name, c.name, "tool", out.warnings);
  const names = exposeNames(c.name, tools.map((t) => t.name), options.separator, options.style);
  const views = new Set([...c.snapshot.resources.map((r) => r.uri), ...c.snapshot.unlistedViews]);
  for (const tool of tools) {
    const exposed = names.get(tool.name) as string;
    if (exposed !== `${c.name}${options.separator}${tool.name}`) out.renames.push({ child: c.name, name: tool.name, exposed });
    const ui = readToolUi(tool._meta);
    let linked = ui?.resourceUri;
    if (linked !== undefined && (!views.has(linked) || ui?.problems.length || !exposable(map.toExposed, linked))) {
      out.warnings.push(`tool "${tool.name}" of child "${c.name}" links to ${linked.slice(0, 200)}, which the child does not serve; the link is removed`);
      linked = undefined;
    }
    if (linked !== undefined) push(out.childsByUri, linked, c.name);
    const entry: ToolEntry = { exposed, child: c.name, name: tool.name, ...exposeTool(tool, exposed, tool._meta, linked, map.toExposed) };
    out.tools.push(entry);
    out.toolByName.set(exposed, entry);
    push(out.toolsByOriginal, tool.name, entry);
  }
}

function addOthers(c: CatalogChild, options: CatalogOptions, out: Builder): void {
  const map = createUriMapper(options.gateway, c.name);
  const prompts = firstWins(c.snapshot.prompts.filter((p) => c.filters.prompts(p.name)), (p) => p.name, c.name, "prompt", out.warnings);
  const names = exposeNames(c.name, prompts.map((p) => p.name), options.separator, options.style);
  for (const prompt of prompts) {
    const entry: PromptEntry = { exposed: names.get(prompt.name) as string, child: c.name, name: prompt.name, prompt: { ...prompt, name: names.get(prompt.name) as string } };
    out.prompts.push(entry);
    out.promptByName.set(entry.exposed, entry);
    push(out.promptsByOriginal, prompt.name, entry);
  }
  const resources = firstWins(c.snapshot.resources.filter((r) => c.filters.resources(r.uri)), (r) => r.uri, c.name, "resource", out.warnings);
  for (const resource of resources) {
    if (!exposable(map.toExposed, resource.uri)) {
      out.warnings.push(`child "${c.name}" lists a resource URI that cannot be namespaced (unpaired surrogate); it is left out`);
      continue;
    }
    const exposed = map.toExposed(resource.uri);
    const listed = dropUiDomain({ resources: [{ ...resource, uri: exposed }] }).resources[0] as Resource;
    out.resources.push({ exposed, child: c.name, uri: resource.uri, resource: listed, ui: map.isView(resource.uri) });
    push(out.childsByUri, resource.uri, c.name);
  }
  for (const uri of c.snapshot.unlistedViews) if (c.filters.resources(uri)) push(out.childsByUri, uri, c.name);
  for (const template of firstWins(c.snapshot.templates.filter((t) => c.filters.resources(t.uriTemplate)), (t) => t.uriTemplate, c.name, "resource template", out.warnings)) {
    out.templates.push({ child: c.name, template: { ...template, uriTemplate: map.toExposedTemplate(template.uriTemplate) } });
  }
}

interface Builder {
  tools: ToolEntry[];
  prompts: PromptEntry[];
  resources: ResourceEntry[];
  templates: TemplateEntry[];
  toolByName: Map<string, ToolEntry>;
  toolsByOriginal: Map<string, ToolEntry[]>;
  promptByName: Map<string, PromptEntry>;
  promptsByOriginal: Map<string, PromptEntry[]>;
  childsByUri: Map<string, string[]>;
  renames: { child: string; name: string; exposed: string }[];
  warnings: string[];
}

/** Builds the catalog; children are taken in name order so the result does not depend on the order given. */
export function buildCatalog(children: readonly CatalogChild[], options: CatalogOptions): Catalog {
  const out: Builder = {
    tools: [], prompts: [], resources: [], templates: [], toolByName: new Map(), toolsByOriginal: new Map(),
    promptByName: new Map(), promptsByOriginal: new Map(), childsByUri: new Map(), renames: [], warnings: [],
  };
  for (const c of [...children].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    addTools(c, options, out);
    addOthers(c, options, out);
  }
  return out;
}
