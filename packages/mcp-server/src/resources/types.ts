/** Public types of resources and resource templates (MCP 2025-11-25, server/resources). */
import type { Annotations, Icon, Meta, Resource } from "@proto/mcp-protocol";
import type { Completer } from "../completions/types";
import type { RequestContext } from "../context";
import type { UriTemplateMatchValue, UriTemplateMatchVariables } from "../uri-template/decode";
import type { ResourceReadReturn } from "./contents";

/** What `resources/list` shows of a resource: the protocol's `Resource` (uri, name, title, description, mimeType, size, annotations, icons, `_meta`). */
export type ResourceDefinition = Resource;

/** Reads a static resource. Return `undefined` to answer -32002 (not found). */
export type ResourceReader = (uri: string, ctx: RequestContext) => ResourceReadReturn | Promise<ResourceReadReturn>;

type Operator = "+" | "#" | "." | "/" | ";" | "?" | "&";
type CleanName<V extends string> = V extends `${infer N}*` ? N : V extends `${infer N}:${string}` ? N : V;
type SplitNames<V extends string> = V extends `${infer A},${infer B}` ? CleanName<A> | SplitNames<B> : CleanName<V>;
type ExpressionNames<E extends string> = E extends `${Operator}${infer V}` ? SplitNames<V> : SplitNames<E>;

/** The variable names of a URI template literal type, e.g. `"users/{id}{?q}"` gives `"id" | "q"`. */
export type TemplateVariableNames<T extends string> = T extends `${string}{${infer E}}${infer Rest}`
  ? ExpressionNames<E> | TemplateVariableNames<Rest>
  : never;

/** The variables a reader receives: typed from the template when it is a literal, absent when undefined in the URI. */
export type TemplateVariables<T extends string> = string extends T
  ? UriTemplateMatchVariables
  : { readonly [K in TemplateVariableNames<T>]?: UriTemplateMatchValue };

/** What `resources/templates/list` shows of a template, plus completion of its variables. */
export interface ResourceTemplateDefinition<T extends string = string> {
  /** An RFC 6570 URI template, e.g. `"users://{id}/profile"`. */
  readonly uriTemplate: T;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The `mimeType` of every resource matching the template, when they share one. */
  readonly mimeType?: string;
  readonly annotations?: Annotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /**
   * Lists the resources this template addresses now (they join `resources/list` after the
   * static ones, paginated together). Called on every `resources/list`: keep it fast. Omit it
   * for templates whose resources cannot be enumerated.
   */
  list?(ctx: RequestContext): readonly ResourceDefinition[] | Promise<readonly ResourceDefinition[]>;
  /** Completion of variables for `completion/complete` with a `ref/resource` reference. */
  readonly complete?: { readonly [K in TemplateVariableNames<T>]?: Completer } & { readonly [name: string]: Completer | undefined };
  /**
   * Variables a URI may leave undefined or empty (e.g. the query parameters of
   * `"items{?limit}"`). Every other variable needs a value: `test://items//data` does not match
   * `test://items/{id}/data`, and its read is -32002 like any unknown URI. Not advertised.
   */
  readonly optional?: readonly (string extends T ? string : TemplateVariableNames<T>)[];
}

/** Reads a resource addressed by a template; `variables` were matched from `uri` (in linear time). */
export type ResourceTemplateReader<T extends string = string> = (
  uri: string,
  variables: TemplateVariables<T>,
  ctx: RequestContext,
) => ResourceReadReturn | Promise<ResourceReadReturn>;

/** A registered resource. */
export interface ResourceHandle {
  readonly uri: string;
  /** Sends `notifications/resources/updated` to the sessions subscribed to this URI. */
  updated(): void;
  /** Unregisters the resource (sends `list_changed`). */
  remove(): void;
}

/** A registered resource template. */
export interface ResourceTemplateHandle {
  readonly uriTemplate: string;
  /** Unregisters the template (sends `list_changed`). */
  remove(): void;
}
