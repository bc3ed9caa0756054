/**
 * Splits a URI into the spans a template's expressions produced, in time linear in the
 * URI's length and without regular expressions, so no URI can make matching backtrack
 * (the official SDK's regex-based matcher had a ReDoS here, CVE-2026-0621).
 *
 * A deterministic template (see `program.ts`) is split by one forward scan. Any other is
 * split with the table of `accept-table.ts`: a forward walk lets each expression take the
 * longest span that still lets the rest of the URI match, which is the answer a greedy
 * backtracking regex would give, found in O(URI length x states) time.
 */
import { acceptTable } from "./accept-table";
import { entryOf, inClass } from "./program";
import type { MatchProgram } from "./program";

type Spans = (string | undefined)[];

function scan(program: MatchProgram, uri: string): Spans | undefined {
  const n = uri.length;
  const spans: Spans = [];
  let p = 0;
  for (const step of program.steps) {
    if (step.kind === "literal") {
      if (!uri.startsWith(step.text, p)) return undefined;
      p += step.text.length;
      continue;
    }
    if (step.pre >= 0) {
      if (p >= n || uri.charCodeAt(p) !== step.first) {
        spans.push(undefined);
        continue;
      }
      p++;
    }
    const start = p;
    while (p < n && inClass(step.cls, uri.charCodeAt(p))) p++;
    spans.push(uri.slice(start, p));
  }
  return p === n ? spans : undefined;
}

function walk(program: MatchProgram, uri: string): Spans | undefined {
  const n = uri.length;
  const words = (program.states + 31) >> 5;
  const table = acceptTable(program, uri, words);
  const has = (state: number, p: number): boolean => (table[p * words + (state >> 5)]! & (1 << (state & 31))) !== 0;
  if (!has(entryOf(program, 0), 0)) return undefined;
  const spans: Spans = [];
  let p = 0;
  for (const step of program.steps) {
    if (step.kind === "literal") {
      p += step.text.length;
      continue;
    }
    if (step.pre >= 0) {
      if (!(p < n && uri.charCodeAt(p) === step.first && has(step.loop, p + 1))) {
        spans.push(undefined);
        continue;
      }
      p++;
    }
    const start = p;
    if (words === 1) {
      const bit = 1 << step.loop;
      const cls = step.cls;
      for (let code = uri.charCodeAt(p); p < n && (code >= 128 || cls[code] === 1) && (table[p + 1]! & bit) !== 0; code = uri.charCodeAt(++p));
    } else {
      while (p < n && inClass(step.cls, uri.charCodeAt(p)) && has(step.loop, p + 1)) p++;
    }
    spans.push(uri.slice(start, p));
  }
  return spans;
}

/**
 * Splits `uri` by `program`: one entry per expression, the text after its operator's first
 * character, or `undefined` when that character is absent (the expression expanded to
 * nothing). Returns `undefined` when the URI does not match the template's shape.
 * `forceTable` is for tests that compare both strategies.
 */
export function segment(program: MatchProgram, uri: string, forceTable = false): Spans | undefined {
  if (uri.length < program.minLength || !uri.startsWith(program.head) || !uri.endsWith(program.tail)) return undefined;
  return program.deterministic && !forceTable ? scan(program, uri) : walk(program, uri);
}
