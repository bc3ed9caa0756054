/**
 * The backward pass of matching: for every position of the URI and every state of the
 * chain, whether the rest of the URI can be accepted from there (a bitset per position).
 * O(URI length x states) time, O(URI length x states / 32) memory, no recursion.
 */
import type { MatchProgram } from "./program";

/** Calls `mark(p)` for each position `p` where `needle` occurs in `haystack` (Knuth-Morris-Pratt: linear, whatever the input). */
function forEachOccurrence(haystack: string, needle: string, mark: (position: number) => void): void {
  const fail = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1] ?? 0;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    fail[i] = k;
  }
  for (let i = 0, k = 0; i < haystack.length; i++) {
    while (k > 0 && haystack.charCodeAt(i) !== needle.charCodeAt(k)) k = fail[k - 1] ?? 0;
    if (haystack.charCodeAt(i) === needle.charCodeAt(k)) k++;
    if (k === needle.length) {
      mark(i - k + 1);
      k = fail[k - 1] ?? 0;
    }
  }
}

function occurrences(haystack: string, needle: string): Uint8Array {
  const found = new Uint8Array(haystack.length + 1);
  forEachOccurrence(haystack, needle, (p) => {
    found[p] = 1;
  });
  return found;
}

/** Scratch rows reused by every match (matching is synchronous), kept up to this many positions. */
const SCRATCH_LIMIT = 1 << 20;
let scratchRows = new Int32Array(0);
let scratchLiterals = new Int32Array(0);

function scratch(n: number): { rows: Int32Array; literals: Int32Array } {
  if (n > SCRATCH_LIMIT) return { rows: new Int32Array(n), literals: new Int32Array(n) };
  if (scratchRows.length < n) {
    scratchRows = new Int32Array(n);
    scratchLiterals = new Int32Array(n);
  } else scratchLiterals.fill(0, 0, n);
  return { rows: scratchRows, literals: scratchLiterals };
}

export function inClass(cls: Uint8Array, code: number): boolean {
  return code >= 128 || cls[code] === 1;
}

export function entryOf(program: MatchProgram, index: number): number {
  const step = program.steps[index];
  if (step === undefined) return program.states - 1;
  return step.kind === "literal" ? step.state : step.pre >= 0 ? step.pre : step.loop;
}

/** The steps flattened into typed arrays, so the hot loop stays monomorphic. */
interface Flat {
  /** 0: one-character literal, 1: longer literal, 2: expression. */
  readonly kind: Uint8Array;
  /** A literal's state, an expression's loop state. */
  readonly state: Int32Array;
  readonly pre: Int32Array;
  /** A one-character literal's code, an expression's first character (-1 when none). */
  readonly code: Int32Array;
  readonly length: Int32Array;
  readonly after: Int32Array;
  readonly classes: readonly Uint8Array[];
  readonly found: readonly (Uint8Array | undefined)[];
}

const NONE = new Uint8Array(128);

function flatten(program: MatchProgram, uri: string): Flat {
  const count = program.steps.length;
  const flat = {
    kind: new Uint8Array(count),
    state: new Int32Array(count),
    pre: new Int32Array(count),
    code: new Int32Array(count),
    length: new Int32Array(count),
    after: new Int32Array(count),
    classes: [] as Uint8Array[],
    found: [] as (Uint8Array | undefined)[],
  };
  program.steps.forEach((step, i) => {
    flat.after[i] = entryOf(program, i + 1);
    if (step.kind === "literal") {
      flat.kind[i] = step.text.length === 1 ? 0 : 1;
      flat.state[i] = step.state;
      flat.code[i] = step.text.charCodeAt(0);
      flat.length[i] = step.text.length;
      flat.found[i] = step.text.length > 1 ? occurrences(uri, step.text) : undefined;
      flat.classes[i] = NONE;
    } else {
      flat.kind[i] = 2;
      flat.state[i] = step.loop;
      flat.pre[i] = step.pre;
      flat.code[i] = step.first;
      flat.classes[i] = step.cls;
    }
  });
  return flat;
}

/**
 * `acceptTable` for chains of at most 32 states: one word per position (in a scratch buffer
 * valid until the next match), every per-step constant precomputed as a bit mask, one table
 * from character to the mask of expression loops whose class holds it, and the positions
 * where multi-character literals occur as masks too. Where no such literal starts, a row
 * depends only on (character, row below), so a run of one character costs one comparison.
 */
function smallTable(program: MatchProgram, uri: string): Int32Array {
  const n = uri.length;
  const steps = program.steps;
  const count = steps.length;
  const { rows: table, literals } = scratch(n + 1);
  const kind = new Uint8Array(count);
  const code1 = new Int32Array(count);
  const length = new Int32Array(count);
  const afterBit = new Int32Array(count);
  const stateBit = new Int32Array(count);
  const preBit = new Int32Array(count);
  const classBits = new Int32Array(128);
  let anyLoop = 0;
  let anyLiteral = false;
  for (let i = 0; i < count; i++) {
    const step = steps[i]!;
    afterBit[i] = 1 << entryOf(program, i + 1);
    if (step.kind === "literal") {
      const bit = 1 << step.state;
      kind[i] = step.text.length === 1 ? 0 : 1;
      stateBit[i] = bit;
      code1[i] = step.text.charCodeAt(0);
      length[i] = step.text.length;
      if (step.text.length > 1) {
        anyLiteral = true;
        // The first step is only ever read at position 0, the last only where it ends the URI.
        if (i === 0) literals[0]! |= uri.startsWith(step.text) ? bit : 0;
        else if (i === count - 1) literals[Math.max(0, n - step.text.length)]! |= uri.endsWith(step.text) ? bit : 0;
        else forEachOccurrence(uri, step.text, (p) => void (literals[p]! |= bit));
      }
      continue;
    }
    kind[i] = 2;
    stateBit[i] = 1 << step.loop;
    preBit[i] = step.pre >= 0 ? 1 << step.pre : 0;
    code1[i] = step.first;
    anyLoop |= stateBit[i]!;
    for (let c = 0; c < 128; c++) if (step.cls[c] === 1) classBits[c]! |= stateBit[i]!;
  }
  let below = 0;
  let memoCode = -2;
  let memoBelow = 0;
  let memoBits = 0;
  for (let p = n; p >= 0; p--) {
    const code = p < n ? uri.charCodeAt(p) : -1;
    const starts = anyLiteral ? literals[p]! : 0;
    if (starts === 0 && code === memoCode && below === memoBelow) {
      table[p] = memoBits;
      below = memoBits;
      continue;
    }
    const loopsNext = below & (code === -1 ? 0 : code >= 128 ? anyLoop : classBits[code]!);
    let bits = p === n ? 1 << (program.states - 1) : 0;
    for (let i = count - 1; i >= 0; i--) {
      const k = kind[i]!;
      const state = stateBit[i]!;
      if (k === 2) {
        const exit = (bits & afterBit[i]!) !== 0;
        if (exit || (loopsNext & state) !== 0) bits |= state;
        const pre = preBit[i]!;
        if (pre !== 0 && (exit || (code === code1[i] && (below & state) !== 0))) bits |= pre;
        continue;
      }
      const end = p + length[i]!;
      const here = k === 0 ? code === code1[i] : (starts & state) !== 0;
      if (here && end <= n && (table[end]! & afterBit[i]!) !== 0) bits |= state;
    }
    table[p] = bits;
    if (starts === 0) {
      memoCode = code;
      memoBelow = below;
      memoBits = bits;
    }
    below = bits;
  }
  return table;
}

/** The backward pass: bit `s` of position `p` is set when state `s` accepts `uri.slice(p)`. */
export function acceptTable(program: MatchProgram, uri: string, words: number): Int32Array {
  if (words === 1) return smallTable(program, uri);
  const n = uri.length;
  const table = new Int32Array((n + 1) * words);
  const f = flatten(program, uri);
  const count = program.steps.length;
  const final = program.states - 1;
  table[n * words + (final >> 5)] = 1 << (final & 31);
  for (let p = n; p >= 0; p--) {
    const code = p < n ? uri.charCodeAt(p) : -1;
    const row = p * words;
    for (let i = count - 1; i >= 0; i--) {
      const after = f.after[i]!;
      const kind = f.kind[i]!;
      const state = f.state[i]!;
      if (kind !== 2) {
        const end = p + f.length[i]!;
        const here = kind === 0 ? code === f.code[i] : f.found[i]![p] === 1;
        if (here && end <= n && (table[end * words + (after >> 5)]! & (1 << (after & 31))) !== 0) {
          table[row + (state >> 5)]! |= 1 << (state & 31);
        }
        continue;
      }
      const exit = (table[row + (after >> 5)]! & (1 << (after & 31))) !== 0;
      const loopNext = code !== -1 && (table[row + words + (state >> 5)]! & (1 << (state & 31))) !== 0;
      if (exit || (loopNext && inClass(f.classes[i]!, code))) table[row + (state >> 5)]! |= 1 << (state & 31);
      const pre = f.pre[i]!;
      if (pre >= 0 && (exit || (loopNext && code === f.code[i]))) table[row + (pre >> 5)]! |= 1 << (pre & 31);
    }
  }
  return table;
}

