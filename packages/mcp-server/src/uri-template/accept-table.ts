/**
 * The backward pass of matching: for every position of the URI and every state of the
 * chain, whether the rest of the URI can be accepted from there (a bitset per position).
 * O(URI length x states) time, O(URI length x states / 32) memory, no recursion.
 */
import type { MatchProgram } from "./program";

/** Marks where `needle` occurs in `haystack` (Knuth-Morris-Pratt: linear, whatever the input). */
function occurrences(haystack: string, needle: string): Uint8Array {
  const found = new Uint8Array(haystack.length + 1);
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
      found[i - k + 1] = 1;
      k = fail[k - 1] ?? 0;
    }
  }
  return found;
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

/** `acceptTable` for chains of at most 32 states: one word per position, the row in a local. */
function smallTable(program: MatchProgram, uri: string): Int32Array {
  const n = uri.length;
  const table = new Int32Array(n + 1);
  const f = flatten(program, uri);
  const count = program.steps.length;
  let below = 0;
  for (let p = n; p >= 0; p--) {
    const code = p < n ? uri.charCodeAt(p) : -1;
    let bits = p === n ? 1 << (program.states - 1) : 0;
    for (let i = count - 1; i >= 0; i--) {
      const afterBit = 1 << f.after[i]!;
      const kind = f.kind[i]!;
      const stateBit = 1 << f.state[i]!;
      if (kind !== 2) {
        const end = p + f.length[i]!;
        const here = kind === 0 ? code === f.code[i] : f.found[i]![p] === 1;
        if (here && end <= n && (table[end]! & afterBit) !== 0) bits |= stateBit;
        continue;
      }
      const exit = (bits & afterBit) !== 0;
      const loopNext = code !== -1 && (below & stateBit) !== 0;
      if (exit || (loopNext && (code >= 128 || f.classes[i]![code] === 1))) bits |= stateBit;
      const pre = f.pre[i]!;
      if (pre >= 0 && (exit || (loopNext && code === f.code[i]))) bits |= 1 << pre;
    }
    table[p] = bits;
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

