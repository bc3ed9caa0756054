/**
 * The nesting guard that runs before `JSON.parse`: one linear pass that skips string
 * contents (escape-aware) and counts `[`/`{` against `]`/`}`. It never recurses, so no
 * input (10 MB of `[` included) can overflow a stack, and it stops at the first level
 * past the limit.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
/**
 * Past this length the bracket count is skipped: counting `{` means searching the whole text
 * for it, while the scan stops at the first level past the limit (10 MB of `[`: 65 steps).
 */
const COUNT_UP_TO = 256 * 1024;

/**
 * Returns the index just past the string that opens at `start` (a `"`), or -1 when the
 * string is unterminated. Jumps between quotes with `indexOf` (native speed) and counts the
 * backslashes before each quote to tell an escaped quote from the closing one.
 */
export function skipString(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  while (end >= 0) {
    let k = end - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if (((end - 1 - k) & 1) === 0) return end + 1;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/**
 * The exact string-aware scan. `slack` lets it stop early: once the structural openers it
 * has passed, minus the current depth, reach `slack` (the total count of `[`/`{` in the text
 * minus `maxDepth`), the openers left cannot lift the depth past `maxDepth`.
 */
function scan(text: string, maxDepth: number, slack: number): boolean {
  const n = text.length;
  let depth = 0;
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i) - 1;
      if (i < 0) return true;
    } else if (c < OPEN_ARRAY) {
      continue;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      seen++;
      if (++depth > maxDepth) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (seen - depth >= slack) return true;
    }
  }
  return true;
}

/** Counts `[` and `{` anywhere in `text` (strings included) with native `indexOf`, stopping past `cap`. */
function countOpeners(text: string, cap: number): number {
  let count = 0;
  for (const bracket of ["{", "["]) {
    let i = text.indexOf(bracket);
    while (i >= 0) {
      if (++count > cap) return count;
      i = text.indexOf(bracket, i + 1);
    }
  }
  return count;
}

/**
 * True when no array or object in `text` nests deeper than `maxDepth` levels (`[]` is one
 * level, `[[]]` two). One linear, string- and escape-aware pass that never recurses and
 * stops at the first level past the limit, so 10 MB of `[` costs 65 steps.
 *
 * Two sound shortcuts keep it cheap on typical messages (up to 256 KiB): a text with at most
 * `maxDepth` brackets `[`/`{` in all cannot nest deeper (no scan at all); and when there are
 * at most twice that many, the scan stops as soon as the brackets left cannot reach the limit.
 * Exact for valid JSON; for invalid JSON it may answer either way, and `JSON.parse` then
 * refuses the text before building anything deeper than the prefix this pass accepted.
 */
export function isDepthWithin(text: string, maxDepth: number): boolean {
  if (text.length <= maxDepth) return true;
  if (text.length > COUNT_UP_TO) return scan(text, maxDepth, Number.POSITIVE_INFINITY);
  const cap = 2 * maxDepth;
  const openers = countOpeners(text, cap);
  if (openers <= maxDepth) return true;
  return scan(text, maxDepth, openers <= cap ? openers - maxDepth : Number.POSITIVE_INFINITY);
}

/** `skipString` over UTF-8 bytes: a quote or backslash byte never occurs inside a multi-byte sequence. */
function skipStringBytes(bytes: Uint8Array, start: number): number {
  let end = bytes.indexOf(QUOTE, start + 1);
  while (end >= 0) {
    let k = end - 1;
    while (bytes[k] === BACKSLASH) k--;
    if (((end - 1 - k) & 1) === 0) return end + 1;
    end = bytes.indexOf(QUOTE, end + 1);
  }
  return -1;
}

/** `scan` over UTF-8 bytes (same rules, same early stop). */
function scanBytes(bytes: Uint8Array, maxDepth: number, slack: number): boolean {
  const n = bytes.length;
  let depth = 0;
  let seen = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i] as number;
    if (c === QUOTE) {
      i = skipStringBytes(bytes, i) - 1;
      if (i < 0) return true;
    } else if (c < OPEN_ARRAY) {
      continue;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      seen++;
      if (++depth > maxDepth) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (seen - depth >= slack) return true;
    }
  }
  return true;
}

function countOpenerBytes(bytes: Uint8Array, cap: number): number {
  let count = 0;
  for (const bracket of [OPEN_OBJECT, OPEN_ARRAY]) {
    let i = bytes.indexOf(bracket);
    while (i >= 0) {
      if (++count > cap) return count;
      i = bytes.indexOf(bracket, i + 1);
    }
  }
  return count;
}

/**
 * `isDepthWithin` over UTF-8 bytes, so a frame can be refused before it is even decoded to
 * text. Exact for the same reason: the bytes of `"`, `\\`, brackets and braces never occur
 * inside a multi-byte UTF-8 sequence.
 */
export function isDepthWithinBytes(bytes: Uint8Array, maxDepth: number): boolean {
  if (bytes.length <= maxDepth) return true;
  if (bytes.length > COUNT_UP_TO) return scanBytes(bytes, maxDepth, Number.POSITIVE_INFINITY);
  const cap = 2 * maxDepth;
  const openers = countOpenerBytes(bytes, cap);
  if (openers <= maxDepth) return true;
  return scanBytes(bytes, maxDepth, openers <= cap ? openers - maxDepth : Number.POSITIVE_INFINITY);
}
