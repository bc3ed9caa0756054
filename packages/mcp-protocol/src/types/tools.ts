/** Tools (MCP 2025-11-25, server/tools). */
import type { Icons, Meta, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from "./base";
import type { ContentBlock } from "./content";
import type { TaskMetadata } from "./tasks";

/** A JSON Schema object (2020-12 unless its `$schema` says otherwise). Kept as given. */
export interface JsonSchemaObject {
  readonly $schema?: string;
  readonly type?: string | readonly string[];
  readonly properties?: { readonly [name: string]: unknown };
  readonly required?: readonly string[];
  readonly [keyword: string]: unknown;
}

/** The schema of a tool's arguments: always an object schema. */
export interface ToolInputSchema extends JsonSchemaObject {
  readonly type: "object";
}

/** Hints about a tool's behaviour; never trust them from an untrusted server. */
export interface ToolAnnotations {
  readonly title?: string;
  /** The tool does not modify its environment. Default false. */
  readonly readOnlyHint?: boolean;
  /** The tool may perform destructive updates (only meaningful when not read-only). Default true. */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no additional effect. Default false. */
  readonly idempotentHint?: boolean;
  /** The tool interacts with an open world of external entities. Default true. */
  readonly openWorldHint?: boolean;
  /** Custom (not in the spec): the tool stores, updates or deletes data. Hosts such as MILA require it. */
  readonly writes?: boolean;
  /** Further custom annotations. */
  readonly [key: string]: unknown;
}

/** Task support of a tool (2025-11-25, experimental). */
export interface ToolExecution {
  readonly taskSupport?: "forbidden" | "optional" | "required";
}

/** A tool as `tools/list` describes it. */
export interface Tool extends Icons {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: ToolInputSchema;
  /** When present, every successful result carries `structuredContent` valid against it. */
  readonly outputSchema?: ToolInputSchema;
  readonly annotations?: ToolAnnotations;
  readonly execution?: ToolExecution;
  readonly _meta?: Meta;
}

/** Params of `tools/list`. */
export type ListToolsRequestParams = PaginatedRequestParams;

/** Result of `tools/list`. */
export interface ListToolsResult extends PaginatedResult {
  readonly tools: readonly Tool[];
}

/** Params of `tools/call`. */
export interface CallToolRequestParams extends RequestParams {
  readonly name: string;
  readonly arguments?: { readonly [key: string]: unknown };
  /** Run as a task (2025-11-25, experimental). */
  readonly task?: TaskMetadata;
}

/** Result of `tools/call`. A tool failure is `isError: true` here, not a JSON-RPC error. */
export interface CallToolResult extends Result {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: { readonly [key: string]: unknown };
  readonly isError?: boolean;
}

/** Params of `notifications/tools/list_changed`. */
export type ToolListChangedNotificationParams = { readonly _meta?: Meta };
