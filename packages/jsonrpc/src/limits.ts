/**
 * Default limits, named the same in every @proto package (DESIGN.md section 4).
 */

/** Largest accepted message: 4 MiB of UTF-8. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** Deepest accepted nesting of arrays and objects. */
export const DEFAULT_MAX_DEPTH = 64;
/** Most messages accepted in one batch. */
export const DEFAULT_MAX_BATCH = 100;
/** Default timeout of outbound requests: 60 seconds. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** Throws a `TypeError` naming `name` unless `value` is a positive integer (or undefined). */
export function checkPositiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
    throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  }
}

/** Counts the UTF-8 bytes of `text`, stopping once the count passes `stopAbove`. */
export function utf8ByteLength(text: string, stopAbove: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length && bytes <= stopAbove; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
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
