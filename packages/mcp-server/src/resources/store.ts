/**
 * The registry behind `server.resource()` and `server.resourceTemplate()`: static resources by
 * URI, templates by text (matched through a URI template router), and the two cached lists
 * whose changes send one coalesced `notifications/resources/list_changed`.
 */
import { NotificationMethod } from "@proto/mcp-protocol";
import type { Resource, ResourceTemplate } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { FeatureHost } from "../feature";
import type { ListEndpoint } from "../list-endpoint";
import { createUriTemplateRouter } from "../uri-template/router";
import type { ResourceReadReturn } from "./contents";
import type { ResourceLister } from "./listing";
import { createResourceRecord, createTemplateRecord } from "./registry";
import type { ResourceRecord, TemplateRecord } from "./registry";
import type { ResourceDefinition, ResourceReader, ResourceTemplateDefinition, ResourceTemplateReader } from "./types";

/** URIs longer than this are not matched against templates (static resources still match exactly). */
export const MAX_TEMPLATE_URI_LENGTH = 1 << 20;

/** A URI resolved to what reads it. */
export interface Resolved {
  readonly mimeType: string | undefined;
  read(ctx: RequestContext): ResourceReadReturn | Promise<ResourceReadReturn>;
}

/** What the resources feature keeps. */
export interface ResourceStore {
  readonly resources: ListEndpoint<Resource>;
  readonly templates: ListEndpoint<ResourceTemplate>;
  readonly size: number;
  /** The static resource with exactly this URI, else the most specific template matching it. */
  resolve(uri: string): Resolved | undefined;
  /** Templates that enumerate their resources. */
  listers(): { readonly uriTemplate: string; readonly list: ResourceLister }[];
  template(uriTemplate: string): TemplateRecord | undefined;
  addResource(def: ResourceDefinition, reader: ResourceReader): ResourceRecord;
  addTemplate(def: ResourceTemplateDefinition, reader: ResourceTemplateReader): TemplateRecord;
  /** Removes the resource `uri` (only `record` when given); false when absent. */
  removeResource(uri: string, record?: ResourceRecord): boolean;
  /** Removes the template (only `record` when given); false when absent. */
  removeTemplate(uriTemplate: string, record?: TemplateRecord): boolean;
  /** True when some template has a completer (kept as a count: the capability is read per modern request). */
  completes(): boolean;
}

/** Creates an empty store whose lists live on `host`. */
export function createResourceStore(host: FeatureHost): ResourceStore {
  const statics = new Map<string, ResourceRecord>();
  const templates = new Map<string, TemplateRecord>();
  const router = createUriTemplateRouter<TemplateRecord>();
  let completing = 0;
  const completer = (record: TemplateRecord): number => (Object.keys(record.complete).length > 0 ? 1 : 0);
  const resources = host.createList<Resource>({
    kind: "resources",
    build: () => [...statics.values()].map((r) => r.descriptor),
    key: (r) => r.uri,
    notification: NotificationMethod.ResourceListChanged,
    notifies: (s) => s.serverCapabilities?.resources?.listChanged === true,
  });
  // Template changes are announced by the resources list: there is no separate notification.
  const templateList = host.createList<ResourceTemplate>({ kind: "resourceTemplates", build: () => [...templates.values()].map((t) => t.descriptor), key: (t) => t.uriTemplate });
  const changed = (both: boolean): void => {
    if (both) templateList.invalidate();
    resources.invalidate();
  };
  return {
    resources,
    templates: templateList,
    get size() {
      return statics.size + templates.size;
    },
    resolve(uri) {
      const own = statics.get(uri);
      if (own !== undefined) return { mimeType: own.descriptor.mimeType, read: (ctx) => own.read(uri, ctx) };
      const route = uri.length > MAX_TEMPLATE_URI_LENGTH ? undefined : router.match(uri);
      if (route === undefined) return undefined;
      const record = route.value;
      return { mimeType: record.descriptor.mimeType, read: (ctx) => record.read(uri, route.variables, ctx) };
    },
    listers: () => [...templates.values()].flatMap((t) => (t.list === undefined ? [] : [{ uriTemplate: t.descriptor.uriTemplate, list: t.list }])),
    template: (uriTemplate) => templates.get(uriTemplate),
    completes: () => completing > 0,
    addResource(def, reader) {
      const record = createResourceRecord(def, reader);
      const uri = record.descriptor.uri;
      if (statics.has(uri)) throw new TypeError(`resource("${uri}"): a resource with this URI is already registered; remove it first`);
      host.registry.registering({ kind: "resources", item: record.descriptor });
      statics.set(uri, record);
      changed(false);
      host.registry.registered({ kind: "resources", item: record.descriptor });
      return record;
    },
    addTemplate(def, reader) {
      const record = createTemplateRecord(def, reader);
      const key = record.descriptor.uriTemplate;
      if (templates.has(key)) throw new TypeError(`resourceTemplate("${key}"): this template is already registered; remove it first`);
      host.registry.registering({ kind: "resourceTemplates", item: record.descriptor });
      templates.set(key, record);
      completing += completer(record);
      router.add(record.template, record);
      changed(true);
      host.registry.registered({ kind: "resourceTemplates", item: record.descriptor });
      return record;
    },
    removeResource(uri, record) {
      const found = statics.get(uri);
      if (found === undefined || (record !== undefined && found !== record)) return false;
      statics.delete(uri);
      changed(false);
      host.registry.removed({ kind: "resources", item: found.descriptor });
      return true;
    },
    removeTemplate(uriTemplate, record) {
      const found = templates.get(uriTemplate);
      if (found === undefined || (record !== undefined && found !== record)) return false;
      templates.delete(uriTemplate);
      completing -= completer(found);
      router.remove(uriTemplate);
      changed(true);
      host.registry.removed({ kind: "resourceTemplates", item: found.descriptor });
      return true;
    },
  };
}
