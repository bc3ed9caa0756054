/**
 * The backward pass for chains of more than 32 states (templates with many expressions):
 * several words per position. Same rules as `smallTable` in `accept-table.ts`, without its
 * shortcuts.
 */
import { occurrences } from "./occurrences";
import { entryOf, inClass } from "./program";
import type { MatchProgram } from "./program";

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

/** Bit `s` of word `s >> 5` at position `p` is set when state `s` accepts `uri.slice(p)`. */
export function wideTable(program: MatchProgram, uri: string, words: number): Int32Array {
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

