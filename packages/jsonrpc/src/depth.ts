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
 * True when no array or object in `text` nests deeper than `maxDepth` levels (`[]` is one
 * level, `[[]]` two). Exact for valid JSON; for invalid JSON it may answer either way, and
 * `JSON.parse` then refuses the text before building anything deep (it stops at the first
 * token that cannot continue the first value).
 */
export function isDepthWithin(text: string, maxDepth: number): boolean {
  const n = text.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i);
      if (i < 0) return true;
      continue;
    }
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return false;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
    i++;
  }
  return true;
}

/**
 * A cheap upper bound check: when the text holds at most `maxDepth` opening brackets in
 * all (strings included), no nesting can exceed `maxDepth`, and the exact scan is skipped.
 * Stops counting at `maxDepth + 1`; each step is a native `indexOf`.
 */
export function hasFewOpeners(text: string, maxDepth: number): boolean {
  let count = 0;
  let i = text.indexOf("{");
  while (i >= 0) {
    if (++count > maxDepth) return false;
    i = text.indexOf("{", i + 1);
  }
  i = text.indexOf("[");
  while (i >= 0) {
    if (++count > maxDepth) return false;
    i = text.indexOf("[", i + 1);
  }
  return true;
}
