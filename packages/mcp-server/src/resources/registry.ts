/**
 * The records behind `server.resource()` and `server.resourceTemplate()`: descriptors as
 * advertised (frozen, without undefined members) and their readers, checked at registration.
 */
import type { Resource, ResourceTemplate } from "@proto/mcp-protocol";
import type { Completers } from "../completions/types";
import { createUriTemplate } from "../uri-template/template";
import type { UriTemplate } from "../uri-template/template";
import { checkIcons, checkOptionalText, checkText, pick } from "./checks";
import type { ResourceLister } from "./listing";
import type { ResourceDefinition, ResourceReader, ResourceTemplateDefinition, ResourceTemplateReader } from "./types";

/** A registered resource. */
export interface ResourceRecord {
  readonly descriptor: Resource;
  readonly read: ResourceReader;
}

/** A registered resource template. */
export interface TemplateRecord {
  readonly descriptor: ResourceTemplate;
  readonly list: ResourceLister | undefined;
  readonly template: UriTemplate;
  readonly read: ResourceTemplateReader;
  readonly complete: Completers;
}

const COMMON = ["name", "title", "description", "mimeType", "annotations", "icons", "_meta"] as const;

function checkCommon(def: { name?: unknown; title?: unknown; description?: unknown; mimeType?: unknown; icons?: unknown }, where: string): void {
  checkText(def.name, "name", where);
  checkOptionalText(def.title, "title", where);
  checkOptionalText(def.description, "description", where);
  checkOptionalText(def.mimeType, "mimeType", where);
  checkIcons(def.icons, where);
}

/** Builds a resource record; throws a `TypeError` that says what is wrong. */
export function createResourceRecord(def: ResourceDefinition, read: ResourceReader): ResourceRecord {
  if (typeof def !== "object" || def === null) throw new TypeError("resource(definition, read): pass { uri, name, ... } and a reader");
  const where = `resource("${String(def.uri)}")`;
  checkText(def.uri, "uri", where);
  checkCommon(def, where);
  if (def.size !== undefined && (!Number.isInteger(def.size) || def.size < 0)) throw new TypeError(`${where}: size must be a whole number of bytes`);
  if (typeof read !== "function") throw new TypeError(`${where}: pass a reader function as the second argument`);
  return { descriptor: Object.freeze(pick(def, ["uri", ...COMMON, "size"])), read };
}

/** Builds a template record: parses the template and checks completers name its variables. */
export function createTemplateRecord(def: ResourceTemplateDefinition, read: ResourceTemplateReader): TemplateRecord {
  if (typeof def !== "object" || def === null) throw new TypeError("resourceTemplate(definition, read): pass { uriTemplate, name, ... } and a reader");
  const where = `resourceTemplate("${String(def.uriTemplate)}")`;
  checkText(def.uriTemplate, "uriTemplate", where);
  checkCommon(def, where);
  if (typeof read !== "function") throw new TypeError(`${where}: pass a reader function as the second argument`);
  const template = createUriTemplate(def.uriTemplate, def.optional === undefined ? undefined : { optional: def.optional });
  const complete: Record<string, NonNullable<Completers[string]>> = {};
  for (const [name, completer] of Object.entries(def.complete ?? {})) {
    if (completer === undefined) continue;
    if (!template.variableNames.includes(name)) {
      throw new TypeError(`${where}: complete.${name} names no variable of the template (variables: ${template.variableNames.join(", ")})`);
    }
    if (typeof completer !== "function" && !Array.isArray(completer)) throw new TypeError(`${where}: complete.${name} must be a function or an array of strings`);
    complete[name] = completer;
  }
  if (def.list !== undefined && typeof def.list !== "function") throw new TypeError(`${where}: list must be a function returning resource descriptors`);
  const list = def.list === undefined ? undefined : (ctx: Parameters<ResourceLister>[0]) => def.list!(ctx);
  return { descriptor: Object.freeze(pick(def, ["uriTemplate", ...COMMON])), list, template, read: read as ResourceTemplateReader, complete };
}
