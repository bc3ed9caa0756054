/**
 * Reads a request's id straight from the text of a frame that was refused before parsing
 * (too deep, too large), so the error reply can carry the id the sender waits on
 * (JSON-RPC 2.0 section 5: id null only when the id cannot be read).
 */
import type { JsonRpcId } from "./types";
import { skipString } from "./depth";
import { isValidId } from "./validate";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Reads a string or number token at `i`; `undefined` for anything else. */
function readIdToken(text: string, i: number, n: number): JsonRpcId | undefined {
  if (text.charCodeAt(i) === 0x22) {
    const end = skipString(text, i);
    if (end < 0 || end > n) return undefined;
    try {
      const value: unknown = JSON.parse(text.slice(i, end));
      return typeof value === "string" && isValidId(value) ? value : undefined;
    } catch {
      return undefined;
    }
  }
  NUMBER.lastIndex = i;
  const match = NUMBER.exec(text);
  // a number running to the end of what was read may go on past it (a cut frame): not readable
  if (!match || NUMBER.lastIndex >= n) return undefined;
  const value = Number(match[0]);
  // the rule of a parsed id: a number past 2^53 or with a fraction is not echoed
  return isValidId(value) ? value : undefined;
}

/** What `readTopLevel` learns about a frame it cannot parse. */
export interface TopLevel {
  /** The top level is an object (not a batch, not garbage). */
  readonly object: boolean;
  /** That object has a `method` member: it is a call. */
  readonly call: boolean;
  /** The call's id when it is a valid id (`isValidId`) (the last one wins, as with `JSON.parse`); else null. */
  readonly id: JsonRpcId | null;
  /** The id of an object that is not a call (a response) when valid; else null. Never echoed: only the local side uses it. */
  readonly responseId: JsonRpcId | null;
}

/**
 * Reads the top-level `"method"` and `"id"` members of the object in the first `window`
 * characters of `text`. Linear, string-aware, never recursive. The id is reported only for
 * a call: a response's id must never be echoed back in an error, or it would settle one of
 * the other side's own requests.
 */
export function readTopLevel(text: string, window: number): TopLevel {
  const n = Math.min(text.length, window);
  let i = skipSpace(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  if (text.charCodeAt(i) !== 0x7b) return { object: false, call: false, id: null, responseId: null };
  let depth = 0;
  let prev = 0;
  let id: JsonRpcId | null = null;
  let call = false;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = skipString(text, i);
      if (end < 0 || end > n) break;
      if (depth === 1 && (prev === 0x7b || prev === 0x2c)) {
        const key = text.slice(i, end);
        const after = skipSpace(text, end);
        if (text.charCodeAt(after) === 0x3a) {
          if (key === '"id"') id = readIdToken(text, skipSpace(text, after + 1), n) ?? null;
          else if (key === '"method"') call = true;
        }
      }
      prev = c;
      i = end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
    if (!isSpace(c)) prev = c;
    i++;
  }
  return { object: true, call, id: call ? id : null, responseId: call ? null : id };
}
