/**
 * Turns what a resource reader returns into `resources/read` contents (MCP 2025-11-25,
 * server/resources "Resource Contents"): text as is, binary as base64 `blob`.
 */
import type { BlobResourceContents, Meta, ReadResourceResult, TextResourceContents } from "@proto/mcp-protocol";

/** One content item as a reader may give it: `uri` and `mimeType` default to the resource's. */
export interface ResourceContentInput {
  readonly uri?: string;
  readonly mimeType?: string;
  /** Text contents. */
  readonly text?: string;
  /** Binary contents: bytes, or a string already base64-encoded. */
  readonly blob?: Uint8Array | ArrayBuffer | string;
  readonly _meta?: Meta;
}

/**
 * What a reader returns: a string (text), bytes (a blob), one content item, several, or a
 * full `ReadResourceResult`. `undefined` or `null` means the resource does not exist (-32002).
 */
export type ResourceReadReturn =
  | string
  | Uint8Array
  | ArrayBuffer
  | ResourceContentInput
  | readonly ResourceContentInput[]
  | ReadResourceResult
  | undefined
  | null;

const CHUNK = 0x8000;

/** Base64 of `bytes` with Web APIs only (runtime-neutral). */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function blobOf(blob: Uint8Array | ArrayBuffer | string, where: string): string {
  if (typeof blob === "string") {
    if (blob.length % 4 !== 0 || !BASE64.test(blob)) throw new TypeError(`${where}: a string blob must be base64; pass bytes (Uint8Array) to have it encoded`);
    return blob;
  }
  return toBase64(blob instanceof Uint8Array ? blob : new Uint8Array(blob));
}

function isBytes(value: unknown): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

function item(input: ResourceContentInput, uri: string, mimeType: string | undefined, where: string): TextResourceContents | BlobResourceContents {
  if (typeof input !== "object" || input === null) throw new TypeError(`${where}: each content must be { text } or { blob }`);
  const base: { uri: string; mimeType?: string; _meta?: Meta } = { uri: input.uri ?? uri };
  const type = input.mimeType ?? mimeType;
  if (type !== undefined) base.mimeType = type;
  if (input._meta !== undefined) base._meta = input._meta;
  if (typeof input.text === "string" && input.blob === undefined) return { ...base, text: input.text };
  if (input.blob !== undefined && input.text === undefined) return { ...base, blob: blobOf(input.blob, where) };
  throw new TypeError(`${where}: each content must have exactly one of text (a string) or blob (bytes or base64)`);
}

/**
 * Normalizes a reader's return value for `uri`; `undefined` when it says the resource does
 * not exist. Throws a `TypeError` (a -32603 for the client, logged for you) for a bad shape.
 */
export function toReadResult(value: ResourceReadReturn, uri: string, mimeType: string | undefined, where: string): ReadResourceResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return { contents: [mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value }] };
  if (isBytes(value)) return { contents: [item({ blob: value }, uri, mimeType, where)] };
  if (Array.isArray(value)) return { contents: value.map((v: ResourceContentInput) => item(v, uri, mimeType, where)) };
  if ("contents" in value && Array.isArray(value.contents)) {
    const { contents, ...rest } = value as ReadResourceResult;
    return { ...rest, contents: contents.map((v) => item(v as ResourceContentInput, uri, mimeType, where)) };
  }
  return { contents: [item(value as ResourceContentInput, uri, mimeType, where)] };
}
