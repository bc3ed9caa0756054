/**
 * Cursor pagination (MCP 2025-11-25, server/utilities/pagination): opaque cursors, a page
 * size chosen by the server, -32602 for a cursor the server cannot use.
 *
 * Cursors are keyset positions (the key of the last item sent), base64url-encoded: adding
 * items never shifts a client's place; removing the very item a cursor points at makes
 * that cursor invalid, and the client lists again from the start.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";

/** One page of a list. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Present when more items follow. */
  readonly nextCursor?: string;
}

/** A list ready to paginate: the items and each key's position. */
export interface PageSource<T> {
  readonly items: readonly T[];
  /** Position of each item by key. */
  readonly index: ReadonlyMap<string, number>;
  /** The key of an item. */
  key(item: T): string;
}

const PREFIX = "k1:";

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(cursor: string): string | undefined {
  if (cursor.length > 8192 || !/^[A-Za-z0-9_-]*$/.test(cursor)) return undefined;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Encodes the cursor that continues after the item with key `key`. */
export function encodeCursor(key: string): string {
  return toBase64Url(PREFIX + key);
}

/** Decodes a cursor into the key it continues after, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): string | undefined {
  const text = fromBase64Url(cursor);
  return text !== undefined && text.startsWith(PREFIX) ? text.slice(PREFIX.length) : undefined;
}

/** The error for a cursor the server cannot use. */
export function invalidCursorError(): JsonRpcError {
  return new JsonRpcError(
    JsonRpcErrorCode.InvalidParams,
    "Invalid cursor: it is malformed or the item it points at was removed; list again without a cursor",
  );
}

/**
 * Returns the page that starts after `cursor` (the first page when undefined), at most
 * `pageSize` items long. Throws `JsonRpcError` -32602 for an unusable cursor.
 */
export function paginate<T>(source: PageSource<T>, cursor: unknown, pageSize: number): Page<T> {
  let start = 0;
  if (cursor !== undefined && cursor !== null) {
    if (typeof cursor !== "string") throw invalidCursorError();
    const key = decodeCursor(cursor);
    const position = key === undefined ? undefined : source.index.get(key);
    if (position === undefined) throw invalidCursorError();
    start = position + 1;
  }
  const end = Math.min(start + pageSize, source.items.length);
  const items = start === 0 && end === source.items.length ? source.items : source.items.slice(start, end);
  if (end >= source.items.length) return { items };
  const last = source.items[end - 1] as T;
  return { items, nextCursor: encodeCursor(source.key(last)) };
}

/** Builds a `PageSource` from items and their key function. Keys must be unique. */
export function createPageSource<T>(items: readonly T[], key: (item: T) => string): PageSource<T> {
  const index = new Map<string, number>();
  items.forEach((item, i) => index.set(key(item), i));
  return { items, index, key };
}
