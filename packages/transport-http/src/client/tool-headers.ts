/**
 * `x-mcp-header` on the client (2026-07-28, server/tools "x-mcp-header" and
 * basic/transports/streamable-http "Custom Headers from Tool Parameters"): the transport
 * checks every tool a modern `tools/list` answer carries, drops the tools whose annotations
 * are invalid (reporting each), remembers the valid bindings by tool name, and mirrors the
 * bound argument values into `Mcp-Param-{Name}` headers of later `tools/call` requests.
 */
import type { JsonRpcMessage, JsonRpcPayload, JsonRpcRequest } from "@proto/jsonrpc";
import { isSuccess } from "@proto/jsonrpc";
import { ModernHeader, encodeHeaderValue } from "./request-headers";

/** One mirrored parameter: its header name and the chain of `properties` keys leading to it. */
export interface ParamBinding {
  readonly header: string;
  readonly path: readonly string[];
}

/** The verdict on one tool's `inputSchema`. */
export type BindingsVerdict = { readonly ok: true; readonly bindings: readonly ParamBinding[] } | { readonly ok: false; readonly reason: string };

const ANNOTATION = "x-mcp-header";
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(["string", "integer", "boolean"]);
/** Keywords whose values are instances, not schemas: an `x-mcp-header` key inside them is data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(["default", "const", "enum", "examples"]);
const MAX_DEPTH = 64;

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface Walk {
  readonly bindings: ParamBinding[];
  readonly seen: Set<string>;
  problem?: string;
}

function annotate(schema: { readonly [key: string]: unknown }, path: readonly string[], walk: Walk): void {
  const name = schema[ANNOTATION];
  const where = path.length === 0 ? "the schema root" : `property "${path.join(".")}"`;
  if (typeof name !== "string" || name === "") walk.problem = `${where} has an empty or non-string x-mcp-header`;
  else if (!TOKEN.test(name)) walk.problem = `x-mcp-header "${name}" on ${where} is not an HTTP token`;
  else if (walk.seen.has(name.toLowerCase())) walk.problem = `x-mcp-header "${name}" is used twice (names are compared ignoring case)`;
  else if (path.length === 0 || !HEADER_TYPES.has(schema.type)) walk.problem = `x-mcp-header "${name}" is on ${where}, whose type is not string, integer or boolean`;
  else {
    walk.seen.add(name.toLowerCase());
    walk.bindings.push({ header: name, path });
  }
}

function visit(node: unknown, reachable: boolean, path: readonly string[], walk: Walk, depth: number): void {
  if (walk.problem !== undefined || depth > MAX_DEPTH) return;
  if (Array.isArray(node)) {
    for (const item of node) visit(item, false, path, walk, depth + 1);
    return;
  }
  if (!isObject(node)) return;
  if (Object.hasOwn(node, ANNOTATION)) {
    if (!reachable) walk.problem = `an x-mcp-header sits under "${path.join(".")}" behind items, a combinator, a condition or $ref`;
    else annotate(node, path, walk);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === ANNOTATION || DATA_KEYWORDS.has(key)) continue;
    if (key === "properties" && isObject(value)) {
      for (const [name, sub] of Object.entries(value)) visit(sub, reachable, [...path, name], walk, depth + 1);
    } else {
      visit(value, false, path, walk, depth + 1);
    }
  }
}

/** Checks the `x-mcp-header` annotations of one `inputSchema` and returns its bindings. */
export function paramBindings(inputSchema: unknown): BindingsVerdict {
  const walk: Walk = { bindings: [], seen: new Set() };
  visit(inputSchema, true, [], walk, 0);
  if (walk.problem !== undefined) return { ok: false, reason: walk.problem };
  return { ok: true, bindings: walk.bindings };
}

function headerValue(value: unknown): string | undefined {
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return undefined;
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let at = args;
  for (const key of path) {
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

/** A tool dropped from a `tools/list` answer, and why. */
export interface RejectedTool {
  readonly tool: string;
  readonly reason: string;
}

/** What one transport knows of its server's tools' header bindings. */
export interface ToolHeaders {
  /** The `Mcp-Param-*` headers of a `tools/call` request (none for a tool never listed). */
  headersFor(request: JsonRpcRequest): Record<string, string>;
  /** Filters a payload holding the answer to `tools/list` request `id`: invalid tools are dropped and reported. */
  filterList(payload: JsonRpcPayload, id: JsonRpcRequest["id"], rejected: (tool: RejectedTool) => void): JsonRpcPayload;
}

function filterOne(message: JsonRpcMessage, id: JsonRpcRequest["id"], known: Map<string, readonly ParamBinding[]>, rejected: (tool: RejectedTool) => void): JsonRpcMessage {
  if (!isSuccess(message) || message.id !== id || !isObject(message.result) || !Array.isArray(message.result.tools)) return message;
  const kept: unknown[] = [];
  for (const tool of message.result.tools as unknown[]) {
    const name = isObject(tool) && typeof tool.name === "string" ? tool.name : undefined;
    const verdict = paramBindings(isObject(tool) ? tool.inputSchema : undefined);
    if (name === undefined || verdict.ok) {
      if (name !== undefined && verdict.ok) known.set(name, verdict.bindings);
      kept.push(tool);
    } else {
      known.delete(name);
      rejected({ tool: name, reason: verdict.reason });
    }
  }
  return kept.length === message.result.tools.length ? message : { ...message, result: { ...message.result, tools: kept } };
}

/** Creates the binding memory of one transport. */
export function createToolHeaders(): ToolHeaders {
  const known = new Map<string, readonly ParamBinding[]>();
  return {
    headersFor(request) {
      const params = request.params as { readonly name?: unknown; readonly arguments?: unknown } | undefined;
      const bindings = typeof params?.name === "string" ? known.get(params.name) : undefined;
      const headers: Record<string, string> = {};
      for (const binding of bindings ?? []) {
        const value = headerValue(valueAt(params?.arguments, binding.path));
        if (value !== undefined) headers[`${ModernHeader.ParamPrefix}${binding.header.toLowerCase()}`] = value;
      }
      return headers;
    },
    filterList(payload, id, rejected) {
      if (Array.isArray(payload)) return payload.map((message: JsonRpcMessage) => filterOne(message, id, known, rejected));
      return filterOne(payload as JsonRpcMessage, id, known, rejected);
    },
  };
}
