/**
 * Default limits, named the same in every @proto package (DESIGN.md section 4).
 */

/** Largest accepted message: 4 MiB of UTF-8. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Deepest accepted nesting of arrays and objects. */
export const DEFAULT_MAX_DEPTH = 64;
/** Most messages accepted in one batch. */
export const DEFAULT_MAX_BATCH = 100;
/** Longest accepted string id, in characters; a longer one makes the message invalid (-32600, answered with id null). */
export const DEFAULT_MAX_ID_LENGTH = 256;
/** Default timeout of outbound requests: 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Throws a `TypeError` naming `name` unless `value` is a positive integer (or undefined). */
export function checkPositiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

const CHUNK = 16 * 1024;

/**
 * Counts the UTF-8 bytes of `text` with native `TextEncoder.encodeInto`, chunk by chunk
 * into one scratch buffer (never a copy of the whole text), stopping once the count passes
 * `stopAbove`. A lone surrogate counts 3 bytes (U+FFFD), as the encoder would write it.
 */
export function utf8ByteLength(text: string, stopAbove: number): number {
  const encoder = new TextEncoder();
  const scratch = new Uint8Array(3 * CHUNK);
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= stopAbove; ) {
    let end = Math.min(i + CHUNK, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--; // keep a surrogate pair whole
    bytes += encoder.encodeInto(text.slice(i, end), scratch).written;
    i = end;
  }
  return bytes;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const nativeIsWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when `text` holds no lone surrogate (so it has a UTF-8 form). Native where available. */
export function isWellFormedText(text: string): boolean {
  return nativeIsWellFormed !== undefined ? nativeIsWellFormed.call(text) : !LONE_SURROGATE.test(text);
}

/** Throws a `TypeError` naming `name` unless `value` is an integer >= 0 that a timer accepts. */
export function checkNonNegativeInteger(name: string, value: number): void {
  if (!(Number.isInteger(value) && value >= 0 && value <= 2_147_483_647)) {
    throw new TypeError(`${name} must be an integer number of milliseconds between 0 and 2^31-1 (0 = none), got ${String(value)}`);
  }
}
