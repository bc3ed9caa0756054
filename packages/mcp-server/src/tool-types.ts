/** Tool definitions and handlers (MCP 2025-11-25, server/tools). */
import type { CallToolResult, Icon, Meta, ToolAnnotations, ToolExecution, ToolInputSchema } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { FromSchema } from "./schema-types";
import type { InferInput, InferOutput, StandardJsonSchema } from "./standard-schema";

/** A JSON Schema for a tool's output (an object schema, or any schema: non-object ones are wrapped in `{ result }`). */
export interface ToolOutputSchema {
  readonly $schema?: string;
  readonly type?: string | readonly string[];
  readonly [keyword: string]: unknown;
}

/**
 * What `inputSchema` accepts: a JSON Schema with `type: "object"` (args typed by `FromSchema`),
 * or a Standard JSON Schema of an object — zod 4.2+ `z.object()`, arktype `type({ ... })`,
 * valibot `toStandardJsonSchema(v.object())` — advertised as its JSON Schema 2020-12 and
 * validated by the library itself (args typed by its output type).
 */
export type ToolInputSchemaLike = ToolInputSchema | StandardJsonSchema;

/** What `outputSchema` accepts: a JSON Schema, or a Standard JSON Schema (see `ToolInputSchemaLike`). */
export type ToolOutputSchemaLike = ToolOutputSchema | StandardJsonSchema;

/** The handler's `args` for an input schema: the library's output type, or the type `FromSchema` reads from a JSON Schema. */
export type ToolArgs<I> = I extends StandardJsonSchema ? InferOutput<I> : FromSchema<I>;

/** Where a tool is offered. The MCP server serves only tools whose surfaces include `"mcp"`. */
export type ToolSurface = "mcp" | (string & {});

/** Everything about a tool except its handler. */
export interface ToolDefinition<I extends ToolInputSchemaLike = ToolInputSchemaLike, O extends ToolOutputSchemaLike | undefined = ToolOutputSchemaLike | undefined> {
  /** Unique name, 1-128 characters of `A-Za-z0-9_-.` (MCP 2025-11-25 tool names). */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /**
   * Schema of the arguments: a JSON Schema (2020-12 unless `$schema` names draft-07 or
   * 2019-09), advertised as given, or a Standard JSON Schema (zod, valibot, arktype),
   * advertised as the JSON Schema of its input.
   */
  readonly inputSchema: I;
  /** Schema of `structuredContent` (JSON Schema or Standard JSON Schema, advertised as its output); results are checked against it. */
  readonly outputSchema?: O;
  /** Spec hints (`readOnlyHint`, ...) and custom ones such as `writes: true`. */
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  /**
   * Task support, advertised as given: `taskSupport` `"optional"` or `"required"` lets calls run
   * as tasks (the server needs `createServer(info, { tasks: {} })`); default `"forbidden"`.
   */
  readonly execution?: ToolExecution;
  /**
   * When a task call becomes a task: `"call"` (default) as soon as it arrives; `"handler"` when
   * the handler calls `ctx.startTask()` (input asked before goes the plain way, e.g. 2026-07-28
   * rounds; a handler that returns first answers plainly, or as a completed task under 2025-11-25).
   */
  readonly taskStart?: "call" | "handler";
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

/**
 * What a handler may return: a string (a text block), structured data, or a full
 * `CallToolResult`. With an `outputSchema`, the structured data must be of its type (the
 * library's input type for a Standard Schema: its transforms run on the way out).
 */
export type ToolReturn<O> = O extends StandardJsonSchema
  ? InferInput<O> | CallToolResult
  : O extends ToolOutputSchema
    ? FromSchema<O> | CallToolResult
    : unknown;

/** The context a tool handler receives. */
export type ToolContext = RequestContext;

/** Runs a tool. `args` were validated (and coerced, or transformed by the schema library) against the input schema. */
export type ToolHandler<I extends ToolInputSchemaLike = ToolInputSchemaLike, O extends ToolOutputSchemaLike | undefined = undefined> = (
  args: ToolArgs<I>,
  ctx: ToolContext,
) => ToolReturn<O> | Promise<ToolReturn<O>>;

/** A lazy tool: the descriptor up front, the handler loaded on the first call only. */
export interface LazyToolDefinition<I extends ToolInputSchemaLike = ToolInputSchemaLike, O extends ToolOutputSchemaLike | undefined = undefined>
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
