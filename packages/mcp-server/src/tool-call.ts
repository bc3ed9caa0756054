/**
 * `tools/call` (MCP 2025-11-25, server/tools "Calling Tools"): find the tool (unknown,
 * hidden, disabled and other-surface tools are all -32602 "Unknown tool"), check scopes,
 * compile the tool's JSON Schema validators on its first call, validate and coerce the
 * arguments (or let the Standard Schema's library validate and transform them: see
 * value-validator.ts), run the handler, normalise and check its result.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger, Principal } from "@proto/jsonrpc";
import type { CallToolResult } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { ToolRecord } from "./tool-registry";
import { handlerOf, isPrepared, prepareRecord } from "./tool-registry";
import type { ToolHandler } from "./tool-types";
import { ProtocolError } from "./protocol-error";
import { isCallToolResult, toCallToolResult, toolError } from "./tool-result";
import type { ArgumentError, ToolArgumentsErrorDetails } from "./validation-report";
import { formatArgumentErrors } from "./validation-report";
import type { Checked } from "./value-validator";

/** The `_meta` key under which refused calls carry machine-readable details. */
export const TOOL_ERROR_META_KEY = "dev.proto/tool-error";

/** How scopes are enforced when a call arrives with no authenticated principal. */
export type UnauthenticatedScopes = "refuse" | "allow";

/** What a call needs from the server. */
export interface ToolCallHost {
  lookup(name: string): ToolRecord | undefined;
  readonly logger: Logger;
  readonly unauthenticatedScopes: UnauthenticatedScopes;
}

function unknownTool(name: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Unknown tool: ${name}; call tools/list for the available tools`);
}

/** Refuses a principal that lacks a tool's scopes (defense in depth behind HTTP's 403). */
export function checkScopes(record: ToolRecord, principal: Principal | undefined, policy: UnauthenticatedScopes): void {
  const required = record.scopes;
  if (required === undefined) return;
  if (principal === undefined && policy === "allow") return;
  const granted = principal?.scopes ?? [];
  const missing = required.filter((scope) => !granted.includes(scope));
  if (missing.length === 0) return;
  throw new JsonRpcError(
    JsonRpcErrorCode.InvalidRequest,
    `Insufficient scope: tool "${record.name}" requires ${required.join(" ")}; ${principal === undefined ? "the caller is not authenticated" : `missing ${missing.join(" ")}`}`,
    { error: "insufficient_scope", scope: required.join(" "), required, granted },
  );
}

/** The `isError` result of refused arguments, with the details under `_meta`. */
function refusedArguments(record: ToolRecord, errors: readonly ArgumentError[]): CallToolResult {
  const details: ToolArgumentsErrorDetails = { code: "invalid_arguments", tool: record.name, errors, schema: record.descriptor.inputSchema };
  return toolError(formatArgumentErrors(record.name, errors), { [TOOL_ERROR_META_KEY]: details });
}

function invalidOutput(record: ToolRecord, errors: readonly ArgumentError[]): CallToolResult {
  const lines = errors.map((e) => `- ${e.path === "" ? "(root)" : e.path}: ${"validate" in e.constraint ? e.suggestion : `fails ${e.reason} ${JSON.stringify(Object.values(e.constraint)[0])}`}`);
  return toolError(
    `Tool "${record.name}" returned structured content that does not match its output schema:\n${lines.join("\n")}\nThis is a fault of the tool, not of the arguments.`,
    { [TOOL_ERROR_META_KEY]: { code: "invalid_output", tool: record.name, errors, schema: record.descriptor.outputSchema } },
  );
}

/**
 * Checks `structuredContent` against the output schema. When a Standard Schema transformed it
 * and the handler returned a value (`returned`, not a `CallToolResult`), the result is rebuilt
 * from the transformed value, text included.
 */
function checkOutput(record: ToolRecord, result: CallToolResult, returned: unknown): CallToolResult | Promise<CallToolResult> {
  const output = record.output;
  if (output === undefined || result.isError === true) return result;
  const structured = result.structuredContent;
  if (structured === undefined) {
    return toolError(`Tool "${record.name}" declares an output schema but returned no structured content. This is a fault of the tool, not of the arguments.`, {
      [TOOL_ERROR_META_KEY]: { code: "invalid_output", tool: record.name, errors: [] },
    });
  }
  const done = (checked: Checked): CallToolResult => {
    if (!checked.ok) return invalidOutput(record, checked.errors);
    if (checked.value === structured) return result;
    const value = checked.value as { readonly [key: string]: unknown };
    if (isCallToolResult(returned)) return { ...result, structuredContent: value };
    return toCallToolResult(record.outputWrapped ? value.result : value);
  };
  const checked = output.check(structured);
  return isThenable(checked) ? Promise.resolve(checked).then(done) : done(checked);
}

/**
 * What a tool threw, as its result: only a `ProtocolError` (thrown on purpose) fails the request.
 * A plain `JsonRpcError` is most often a request of the tool's own that failed (the client
 * refused `ctx.sample`, a 2025 client lacks a capability): the tool's failure, not the call's;
 * its `{ code, message, data }` travel under `_meta` (`code: "request_failed"`).
 */
function fromThrown(record: ToolRecord, error: unknown, ctx: RequestContext, logger: Logger): CallToolResult {
  if (error instanceof ProtocolError || ctx.signal.aborted) throw error;
  logger.warn(`Tool "${record.name}" threw; the client got an isError result`, error);
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "The tool failed";
  const text = message === "" ? "The tool failed" : message;
  if (!(error instanceof JsonRpcError)) return toolError(text);
  return toolError(text, { [TOOL_ERROR_META_KEY]: { code: "request_failed", tool: record.name, error: error.toObject() } });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function finish(host: ToolCallHost, record: ToolRecord, value: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  try {
    const checked = checkOutput(record, toCallToolResult(value), value);
    return isThenable(checked) ? Promise.resolve(checked).catch((error: unknown) => fromThrown(record, error, ctx, host.logger)) : checked;
  } catch (error) {
    return fromThrown(record, error, ctx, host.logger);
  }
}

/** Runs the handler; stays synchronous when the handler is (no microtask hop for a plain return). */
function run(host: ToolCallHost, record: ToolRecord, handler: ToolHandler, args: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  let value: unknown;
  try {
    value = handler(args as never, ctx);
  } catch (error) {
    return fromThrown(record, error, ctx, host.logger);
  }
  if (!isThenable(value)) return finish(host, record, value, ctx);
  return Promise.resolve(value).then(
    (resolved) => finish(host, record, resolved, ctx),
    (error: unknown) => fromThrown(record, error, ctx, host.logger),
  );
}

/** An input or output schema ajv could not compile: the server's fault, reported as -32603 (and logged by the compiler). */
function unusableTool(record: ToolRecord, error: unknown): JsonRpcError {
  const reason = error instanceof Error ? error.message : String(error);
  return new JsonRpcError(
    JsonRpcErrorCode.InternalError,
    `Tool "${record.name}" cannot be called: ${reason}. This is a fault of the server's tool definition, not of the request; fix the schema (await server.ready() to find such faults at start-up).`,
    { code: "invalid_schema", tool: record.name },
  );
}

/** A request cancelled while its tool was compiling or loading never reaches the handler (no response is sent for it anyway). */
function stopIfCancelled(ctx: RequestContext): void {
  if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("cancelled");
}

function runChecked(host: ToolCallHost, record: ToolRecord, checked: Checked, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  if (!checked.ok) return refusedArguments(record, checked.errors);
  if (record.handler !== undefined) return run(host, record, record.handler, checked.value, ctx);
  return Promise.resolve(handlerOf(record)).then(
    (handler) => (stopIfCancelled(ctx), run(host, record, handler, checked.value, ctx)),
    (error: unknown) => fromThrown(record, error, ctx, host.logger),
  );
}

/** Validates, then runs the handler (loading it first for a lazy tool). Needs the validators compiled. */
function validateAndRun(host: ToolCallHost, record: ToolRecord, raw: unknown, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  const checked = record.input.check(raw);
  if (!isThenable(checked)) return runChecked(host, record, checked, ctx);
  return Promise.resolve(checked).then((c) => (stopIfCancelled(ctx), runChecked(host, record, c, ctx)));
}

/** `arguments` is an object or absent (then `{}`); anything else, `null` included, is -32602 (schema.ts `CallToolRequestParams`). */
function argumentsOf(value: unknown): unknown {
  if (value === undefined) return {};
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
  const got = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
  throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: tools/call arguments must be an object, got ${got}; send the tool's arguments as a JSON object (or omit them)`);
}

/**
 * Runs `tools/call`. Throws `JsonRpcError` for protocol errors (and a handler's `ProtocolError`);
 * tool failures are `isError` results. Synchronous once the tool's validators are compiled and its handler is loaded.
 */
export function callTool(host: ToolCallHost, params: JsonRpcParams | undefined, ctx: RequestContext): CallToolResult | Promise<CallToolResult> {
  const p = (params ?? {}) as { name?: unknown; arguments?: unknown };
  if (Array.isArray(params) || typeof p.name !== "string") {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: tools/call needs { name: string, arguments?: object }");
  }
  const record = host.lookup(p.name);
  if (record === undefined) throw unknownTool(p.name);
  checkScopes(record, ctx.principal, host.unauthenticatedScopes);
  const raw = argumentsOf(p.arguments);
  if (isPrepared(record)) return validateAndRun(host, record, raw, ctx);
  return prepareRecord(record).then(
    () => (stopIfCancelled(ctx), validateAndRun(host, record, raw, ctx)),
    (error: unknown) => {
      throw unusableTool(record, error);
    },
  );
}

/** The scopes a `tools/call` request needs, or undefined when the tool needs none or is not served. */
export function scopesForCall(host: ToolCallHost, params: unknown): readonly string[] | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const name = (params as { name?: unknown }).name;
  return typeof name === "string" ? host.lookup(name)?.scopes : undefined;
}
