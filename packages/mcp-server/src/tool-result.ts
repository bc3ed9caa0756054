/**
 * Turning what a tool handler returns into a `CallToolResult` (MCP 2025-11-25,
 * server/tools "Tool Result", "Structured Content").
 *
 * A string is one text block; an object is `structuredContent` plus its JSON as text; an
 * array, number or boolean is wrapped as `{ result: value }` (2025-11-25 requires
 * `structuredContent` to be an object) with its JSON as text; undefined or null is an empty
 * result; a full `CallToolResult` passes through.
 */
import type { CallToolResult, ContentBlock } from "@proto/mcp-protocol";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const RESULT_KEYS = new Set(["content", "structuredContent", "isError", "_meta"]);

/** True when `value` already is a `CallToolResult`: a `content` array of typed blocks and no other keys. */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (!isRecord(value) || !Array.isArray(value.content)) return false;
  for (const key of Object.keys(value)) if (!RESULT_KEYS.has(key)) return false;
  return value.content.every((block: unknown) => isRecord(block) && typeof block.type === "string");
}

/** A tool error result: `isError: true` with one text block, and optional `_meta` details. */
export function toolError(text: string, meta?: { readonly [key: string]: unknown }): CallToolResult {
  const content: ContentBlock[] = [{ type: "text", text }];
  return meta === undefined ? { content, isError: true } : { content, isError: true, _meta: meta };
}

/** Wraps a non-object structured value as `{ result }`. */
export function wrapStructured(value: unknown): { readonly [key: string]: unknown } {
  return isRecord(value) ? value : { result: value };
}

/** Normalises a handler's return value. Throws a `TypeError` when structured data cannot be serialised. */
export function toCallToolResult(value: unknown): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isCallToolResult(value)) return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new TypeError(`the result cannot be serialised as JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (text === undefined) throw new TypeError(`a ${typeof value} result cannot be serialised as JSON`);
  return { content: [{ type: "text", text }], structuredContent: wrapStructured(value) };
}
