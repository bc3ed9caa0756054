/**
 * The backward pass of matching: for every position of the URI and every state of the
 * chain, whether the rest of the URI can be accepted from there (a bitset per position).
 * O(URI length x states) time, O(URI length x states / 32) memory, no recursion.
 */
import { forEachOccurrence } from "./occurrences";
import { entryOf } from "./program";
import type { MatchProgram } from "./program";
import { wideTable } from "./wide-table";

/**
 * Scratch rows reused by every match (matching is synchronous), kept up to this many positions
 * (32 KiB): a longer URI gets rows of its own, freed after its match, so one long match does not
 * pin megabytes for the life of the process.
 */
const SCRATCH_LIMIT = 4_096;
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

/** Positions the module-global scratch rows hold now (for tests: never above the limit). */
export function retainedScratchPositions(): number {
  return scratchRows.length;
}

/** Per-step constants of `smallTable` as bit masks, and where multi-character literals occur. */
interface Masks {
  readonly kind: Uint8Array;
  readonly code1: Int32Array;
  readonly length: Int32Array;
  readonly afterBit: Int32Array;
  readonly stateBit: Int32Array;
  readonly preBit: Int32Array;
  readonly classBits: Int32Array;
  readonly anyLoop: number;
  readonly anyLiteral: boolean;
}

function masksOf(program: MatchProgram, uri: string, literals: Int32Array): Masks {
  const n = uri.length;
  const steps = program.steps;
  const count = steps.length;
  const m = {
    kind: new Uint8Array(count),
    code1: new Int32Array(count),
    length: new Int32Array(count),
    afterBit: new Int32Array(count),
    stateBit: new Int32Array(count),
    preBit: new Int32Array(count),
    classBits: new Int32Array(128),
    anyLoop: 0,
    anyLiteral: false,
  };
  for (let i = 0; i < count; i++) {
    const step = steps[i]!;
    m.afterBit[i] = 1 << entryOf(program, i + 1);
    if (step.kind === "literal") {
      const bit = 1 << step.state;
      m.kind[i] = step.text.length === 1 ? 0 : 1;
      m.stateBit[i] = bit;
      m.code1[i] = step.text.charCodeAt(0);
      m.length[i] = step.text.length;
      if (step.text.length === 1) continue;
      m.anyLiteral = true;
      // The first step is only ever read at position 0, the last only where it ends the URI.
      if (i === 0) literals[0]! |= uri.startsWith(step.text) ? bit : 0;
      else if (i === count - 1) literals[Math.max(0, n - step.text.length)]! |= uri.endsWith(step.text) ? bit : 0;
      else forEachOccurrence(uri, step.text, (p) => void (literals[p]! |= bit));
      continue;
    }
    m.kind[i] = 2;
    m.stateBit[i] = 1 << step.loop;
    m.preBit[i] = step.pre >= 0 ? 1 << step.pre : 0;
    m.code1[i] = step.first;
    m.anyLoop |= m.stateBit[i]!;
    for (let c = 0; c < 128; c++) if (step.cls[c] === 1) m.classBits[c]! |= m.stateBit[i]!;
  }
  return m;
}

/**
 * One word per position (chains of at most 32 states): one word per position (in a scratch buffer
 * valid until the next match), every per-step constant precomputed as a bit mask, one table
 * from character to the mask of expression loops whose class holds it, and the positions
 * where multi-character literals occur as masks too. Where no such literal starts, a row
 * depends only on (character, row below), so a run of one character costs one comparison.
 */
function smallTable(program: MatchProgram, uri: string): Int32Array {
  const n = uri.length;
  const count = program.steps.length;
  const { rows: table, literals } = scratch(n + 1);
  const { kind, code1, length, afterBit, stateBit, preBit, classBits, anyLoop, anyLiteral } = masksOf(program, uri, literals);
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

/** The backward pass: bit `s` of position `p` is set when state `s` accepts `uri.slice(p)` (`words` 32-bit words per position). */
export function acceptTable(program: MatchProgram, uri: string, words: number): Int32Array {
  return words === 1 ? smallTable(program, uri) : wideTable(program, uri, words);
}
