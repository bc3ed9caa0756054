/**
 * Compiles a parsed template into the chain of states `match.ts` walks, and decides whether
 * the chain is deterministic (LL(1)): when no expression's characters can also start what
 * follows it, a single forward scan finds the only possible split and no table is needed.
 */
import { OPERATORS, expressionClass } from "./operators";
import type { TemplatePart } from "./parse";

/** One step of the chain. */
export type Step =
  | { readonly kind: "literal"; readonly text: string; readonly state: number }
  | {
      readonly kind: "expression";
      /** Char code of the operator's first character, or -1 when it has none. */
      readonly first: number;
      readonly cls: Uint8Array;
      /** The prefix state, or -1 when the operator has no first character. */
      readonly pre: number;
      readonly loop: number;
    };

/** A template compiled for matching; build it once with `compileMatcher`. */
export interface MatchProgram {
  readonly steps: readonly Step[];
  readonly states: number;
  /** Literal text the URI must start and end with (cheap rejection before any allocation). */
  readonly head: string;
  readonly tail: string;
  readonly minLength: number;
  /** True when one forward scan decides every split (see `isDeterministic`). */
  readonly deterministic: boolean;
}

/** For each part, `?` when a query expression comes later and `#` when a fragment expression does. */
function laterDelimiters(parts: readonly TemplatePart[]): string[] {
  const out: string[] = [];
  let seen = "";
  for (let i = parts.length - 1; i >= 0; i--) {
    out[i] = seen;
    const part = parts[i]!;
    if (part.kind !== "expression") continue;
    if ((part.op === "?" || part.op === "&") && !seen.includes("?")) seen += "?";
    if (part.op === "#" && !seen.includes("#")) seen += "#";
  }
  return out;
}

/** Compiles parsed parts into a matching program. */
export function compileMatcher(parts: readonly TemplatePart[]): MatchProgram {
  const steps: Step[] = [];
  let states = 0;
  let minLength = 0;
  const later = laterDelimiters(parts);
  for (const [index, part] of parts.entries()) {
    if (part.kind === "literal") {
      steps.push({ kind: "literal", text: part.text, state: states++ });
      minLength += part.text.length;
      continue;
    }
    const spec = OPERATORS[part.op];
    const anyExplode = part.vars.some((v) => v.explode);
    const anyPlain = part.vars.some((v) => !v.explode);
    const cls = expressionClass(part.op, part.vars.length, anyExplode, anyPlain, later[index] ?? "");
    const pre = spec.first === "" ? -1 : states++;
    steps.push({ kind: "expression", first: spec.first === "" ? -1 : spec.first.charCodeAt(0), cls, pre, loop: states++ });
  }
  const firstPart = parts[0];
  const lastPart = parts[parts.length - 1];
  const head = firstPart?.kind === "literal" ? firstPart.text : "";
  const tail = lastPart?.kind === "literal" && parts.length > 1 ? lastPart.text : "";
  return { steps, states: states + 1, head, tail, minLength, deterministic: isDeterministic(steps) };
}


/**
 * True when, for every expression, neither its operator's first character nor any
 * character of its class can begin the rest of the template (computed right to left as the
 * set of possible first characters of each suffix). Then each expression's span is simply
 * its longest run of class characters, and the scan equals the table walk.
 */
function isDeterministic(steps: readonly Step[]): boolean {
  const first = new Uint8Array(128);
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (step.kind === "literal") {
      first.fill(0);
      first[step.text.charCodeAt(0)] = 1;
      continue;
    }
    if (step.first >= 0 && first[step.first] === 1) return false;
    for (let code = 0; code < 128; code++) if (first[code] === 1 && step.cls[code] === 1) return false;
    if (step.first >= 0) first[step.first] = 1;
    else for (let code = 0; code < 128; code++) if (step.cls[code] === 1) first[code] = 1;
  }
  return true;
}

/** True when `code` may appear in an expression whose class is `cls` (non-ASCII always may). */
export function inClass(cls: Uint8Array, code: number): boolean {
  return code >= 128 || cls[code] === 1;
}

/** The entry state of step `index` (the final state past the last step). */
export function entryOf(program: MatchProgram, index: number): number {
  const step = program.steps[index];
  if (step === undefined) return program.states - 1;
  return step.kind === "literal" ? step.state : step.pre >= 0 ? step.pre : step.loop;
}
