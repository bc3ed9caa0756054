/** Tool definitions and handlers (MCP 2025-11-25, server/tools). */
import type { CallToolResult, Icon, Meta, ToolAnnotations, ToolExecution, ToolInputSchema } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { FromSchema } from "./schema-types";

/** A JSON Schema for a tool's output (an object schema, or any schema: non-object ones are wrapped in `{ result }`). */
export interface ToolOutputSchema {
  readonly $schema?: string;
  readonly type?: string | readonly string[];
  readonly [keyword: string]: unknown;
}

/** Where a tool is offered. The MCP server serves only tools whose surfaces include `"mcp"`. */
export type ToolSurface = "mcp" | (string & {});

/** Everything about a tool except its handler. */
export interface ToolDefinition<I extends ToolInputSchema = ToolInputSchema, O extends ToolOutputSchema | undefined = ToolOutputSchema | undefined> {
  /** Unique name, 1-128 characters of `A-Za-z0-9_-.` (MCP 2025-11-25 tool names). */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** JSON Schema of the arguments (2020-12 unless `$schema` names draft-07 or 2019-09). Advertised as given. */
  readonly inputSchema: I;
  /** JSON Schema of `structuredContent`; results are checked against it. */
  readonly outputSchema?: O;
  /** Spec hints (`readOnlyHint`, ...) and custom ones such as `writes: true`. */
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly execution?: ToolExecution;
  readonly _meta?: Meta;
  /** OAuth scopes a caller needs; a call whose principal lacks one is refused (and `scopesFor` lets HTTP answer 403 first). */
  readonly scopes?: readonly string[];
  /** Never listed, never callable over MCP (refused exactly like an unknown tool). */
  readonly hidden?: boolean;
  /** Surfaces the tool is offered on; default `["mcp"]`. Without `"mcp"` the tool is neither listed nor callable here. */
  readonly surfaces?: readonly ToolSurface[];
  /** Start disabled (not listed, not callable) until `enable()`. Default true. */
  readonly enabled?: boolean;
}

/** What a handler may return: a string (a text block), structured data, or a full `CallToolResult`. */
export type ToolReturn<O> = O extends ToolOutputSchema ? FromSchema<O> | CallToolResult : unknown;

/** The context a tool handler receives. */
export type ToolContext = RequestContext;

/** Runs a tool. `args` were validated (and coerced) against the input schema. */
export type ToolHandler<I extends ToolInputSchema = ToolInputSchema, O extends ToolOutputSchema | undefined = undefined> = (
  args: FromSchema<I>,
  ctx: ToolContext,
) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** A lazy tool: the descriptor up front, the handler loaded on the first call only. */
export interface LazyToolDefinition<I extends ToolInputSchema = ToolInputSchema, O extends ToolOutputSchema | undefined = undefined>
  extends ToolDefinition<I, O> {
  /** Loads the handler (e.g. `() => import("./deploy").then((m) => m.deploy)`); called once, retried after a failure. */
  load(): Promise<ToolHandler<I, O>>;
}

/** A registered tool. */
export interface ToolHandle {
  readonly name: string;
  /** True when listed and callable (enabled, not hidden, offered on the MCP surface). */
  readonly active: boolean;
  /** Makes the tool listed and callable again; sends `list_changed` when that changes anything. */
  enable(): void;
  /** Stops listing the tool and refuses calls to it; sends `list_changed`. */
  disable(): void;
  /** Unregisters the tool; sends `list_changed`. */
  remove(): void;
}
