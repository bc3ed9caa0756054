/**
 * The one source of the default limits, named the same in every @proto package (DESIGN.md
 * section 4), and the one validator of those limits (`checkLimit`, `resolveLimits`): every
 * package imports them from here instead of retyping 4 MiB / 64 / 100.
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

/** The message limits every transport applies to what it reads (the codec's `DecodeLimits`). */
export interface DecodeLimits {
  /** Largest accepted message in bytes (UTF-8). Default 4 MiB (4,194,304). */
  readonly maxMessageBytes?: number;
  /** Deepest accepted nesting of arrays and objects. Default 64. */
  readonly maxDepth?: number;
  /** Most messages accepted in one batch. Default 100. */
  readonly maxBatch?: number;
}

/** `DecodeLimits` with every default filled in. */
export interface MessageLimits {
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  readonly maxBatch: number;
}

/**
 * The validator of one size or count limit: returns `value`, or `fallback` when it is undefined.
 * Throws a `TypeError` naming `name` unless `value` is a safe integer >= 1 (no fraction, no
 * NaN, no Infinity, no 0: a limit of 0 would mean "none" to some libraries and "refuse all" to
 * others, so it is never accepted).
 */
export function checkLimit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TypeError(`${name} must be a positive integer (1 or more), got ${String(value)}`);
  }
  return value;
}

/**
 * Checks the three message limits of `limits` with `checkLimit` and fills in the defaults
 * (`DEFAULT_MAX_MESSAGE_BYTES`, `DEFAULT_MAX_DEPTH`, `DEFAULT_MAX_BATCH`). Reads only those three
 * members, so a transport can pass its whole options object. Throws a `TypeError` naming the
 * first bad one.
 */
export function resolveLimits(limits: DecodeLimits | undefined): MessageLimits {
  return {
    maxMessageBytes: checkLimit("maxMessageBytes", limits?.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
    maxDepth: checkLimit("maxDepth", limits?.maxDepth, DEFAULT_MAX_DEPTH),
    maxBatch: checkLimit("maxBatch", limits?.maxBatch, DEFAULT_MAX_BATCH),
  };
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
