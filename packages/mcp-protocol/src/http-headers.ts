/**
 * The standard and custom request headers of Streamable HTTP under the stateless revision
 * (MCP 2026-07-28 basic/transports/streamable-http, "Standard MCP Request Headers", "Custom
 * Headers from Tool Parameters", "Value Encoding"). Clients mirror body values into these
 * headers; servers decode and compare them. Both sides use the helpers below.
 */
import { DEFAULT_MAX_DEPTH } from "@proto/jsonrpc";

/** Header names, lower-case (header names compare case-insensitively). */
export const McpHttpHeader = {
  ProtocolVersion: "mcp-protocol-version",
  /** The request's `method`, on every request. */
  Method: "mcp-method",
  /** `params.name` of `tools/call` / `prompts/get`, `params.uri` of `resources/read`, `params.taskId` of `tasks/get|update|cancel`. */
  Name: "mcp-name",
  /** Prefix of the headers mirroring `x-mcp-header` tool parameters: `Mcp-Param-{Name}`. */
  ParamPrefix: "mcp-param-",
} as const;

/** The schema keyword that tags a tool parameter for mirroring into a header. */
export const X_MCP_HEADER = "x-mcp-header";

const SENTINEL_HEAD = "=?base64?";
const SENTINEL_TAIL = "?=";
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isSentinel(value: string): boolean {
  return value.length >= SENTINEL_HEAD.length + SENTINEL_TAIL.length && value.startsWith(SENTINEL_HEAD) && value.endsWith(SENTINEL_TAIL);
}

/**
 * A header value for `value`: as is when it is visible ASCII without edge whitespace and not
 * sentinel-shaped, otherwise `=?base64?{Base64 of the UTF-8}?=`. The empty string is sent as is.
 */
export function encodeHeaderValue(value: string): string {
  if (value === "" || (PLAIN.test(value) && !isSentinel(value))) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_HEAD}${btoa(binary)}${SENTINEL_TAIL}`;
}

/**
 * The value a header carries, decoding the Base64 sentinel; `undefined` when the raw value has
 * characters a header value may not have, or the sentinel holds invalid Base64 or UTF-8.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!isSentinel(raw)) return raw === "" || /^[\x20-\x7e\t]*$/.test(raw) ? raw : undefined;
  const body = raw.slice(SENTINEL_HEAD.length, raw.length - SENTINEL_TAIL.length);
  if (!BASE64.test(body)) return undefined;
  try {
    const binary = atob(body);
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The body value `Mcp-Name` mirrors for `method`, or `undefined` when the method has none. */
export function nameHeaderSource(method: string, params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const p = params as { name?: unknown; uri?: unknown; taskId?: unknown };
  if (method === "tools/call" || method === "prompts/get") return typeof p.name === "string" ? p.name : undefined;
  if (method === "resources/read") return typeof p.uri === "string" ? p.uri : undefined;
  if (TASK_ID_METHODS.has(method)) return typeof p.taskId === "string" ? p.taskId : undefined;
  return undefined;
}

/** The tasks extension's methods that route by `Mcp-Name: <taskId>` (ext-tasks "Streamable HTTP: Routing Headers"). */
const TASK_ID_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

/** True when `method` requires `Mcp-Name`. */
export function requiresNameHeader(method: string): boolean {
  return method === "tools/call" || method === "prompts/get" || method === "resources/read" || TASK_ID_METHODS.has(method);
}

/** One tool parameter mirrored into `Mcp-Param-{header}`. */
export interface HeaderParam {
  /** The `x-mcp-header` value (the name part of the header). */
  readonly header: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/** The header parameters of a tool, or why its `x-mcp-header` annotations are invalid. */
export type HeaderParamsOf = { readonly params: readonly HeaderParam[] } | { readonly problem: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function countAnnotations(node: unknown, depth = 0): number {
  if (depth > DEFAULT_MAX_DEPTH || typeof node !== "object" || node === null) return 0;
  let n = 0;
  for (const [key, child] of Object.entries(node)) {
    if (key === X_MCP_HEADER) n += 1;
    n += countAnnotations(child, depth + 1);
  }
  return n;
}

function collect(schema: Record<string, unknown>, path: readonly string[], out: HeaderParam[]): string | undefined {
  const properties = schema.properties;
  if (!isRecord(properties)) return undefined;
  for (const [key, child] of Object.entries(properties)) {
    if (!isRecord(child)) continue;
    const at = [...path, key];
    const tag = child[X_MCP_HEADER];
    if (tag !== undefined) {
      if (typeof tag !== "string" || !TOKEN.test(tag)) return `${at.join(".")}: x-mcp-header must be a non-empty HTTP token`;
      const type = child.type;
      if (type !== "string" && type !== "integer" && type !== "boolean") return `${at.join(".")}: x-mcp-header needs type string, integer or boolean`;
      out.push({ header: tag, path: at, type });
    }
    const problem = path.length < 32 ? collect(child, at, out) : undefined;
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * Reads the `x-mcp-header` annotations of a tool's `inputSchema`. Invalid when a value is not
 * an HTTP token, names are not unique ignoring case, the type is not string/integer/boolean,
 * or an annotation is reachable other than through `properties` keys alone.
 */
export function headerParamsOf(inputSchema: unknown): HeaderParamsOf {
  if (!isRecord(inputSchema)) return { params: [] };
  const params: HeaderParam[] = [];
  const problem = collect(inputSchema, [], params);
  if (problem !== undefined) return { problem };
  if (countAnnotations(inputSchema) !== params.length) return { problem: "x-mcp-header is only allowed on properties reached through `properties` keys alone" };
  const seen = new Set<string>();
  for (const p of params) {
    const lower = p.header.toLowerCase();
    if (seen.has(lower)) return { problem: `x-mcp-header "${p.header}" is not unique (names compare ignoring case)` };
    seen.add(lower);
  }
  return { params };
}

/**
 * The unencoded header text for a parameter's value in `args`, or `undefined` when the value
 * is absent or null (the header is then omitted). Integers in decimal, booleans lower-case.
 */
export function headerParamText(param: HeaderParam, args: unknown): string | undefined {
  let value: unknown = args;
  for (const key of param.path) {
    if (!isRecord(value) || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = value[key];
  }
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}
