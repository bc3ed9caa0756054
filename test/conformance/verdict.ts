/**
 * Turns the CLI's checks into a verdict per scenario and compares it with the burn-down list
 * (`expected-failures.json`): a failure not on the list fails the run, and so does an entry
 * whose scenario now passes (remove it) or no longer exists. Checks are counted, not scenarios:
 * a scenario that ran no SUCCESS/FAILURE check at all is a failure, and so is a WARNING or a
 * SKIPPED check (something was not verified). The exceptions are in `harness-skipped.json`, each
 * with its reason: a `scenario` entry is one the pinned CLI skips outright (every check SKIPPED,
 * whatever the implementation does), reported as "harness skipped", neither passed nor failed;
 * a `scenario#check-id#check-name` entry accepts that scenario's one SKIPPED check of that id and
 * name (a check the harness does not apply to this wire), and a `scenario#check-id` entry every
 * SKIPPED check of that id (use it only where the CLI names no check apart: it would also hide a
 * check that starts being skipped because the implementation regressed). All fail the run once
 * they no longer match (the scenario produces other checks, the check is no longer skipped), so
 * that it gets scored.
 */
import { readFileSync } from "node:fs";
import type { Check } from "./cli";

/** Which suite a scenario belongs to. */
export type Suite = "server" | "client";

/** The outcome of one scenario. */
export interface ScenarioResult {
  readonly suite: Suite;
  readonly scenario: string;
  readonly passed: number;
  readonly failed: number;
  readonly warnings: number;
  readonly skipped: number;
  /** The SKIPPED checks (judged against the harness-skipped list, not in `problems`). */
  readonly skippedChecks: readonly { readonly id: string; readonly name?: string; readonly message: string }[];
  /** Why the scenario failed, SKIPPED checks aside; empty when it passed. */
  readonly problems: readonly string[];
  /** How many times it ran (timing-sensitive scenarios are retried once or twice). */
  readonly attempts: number;
}

/** A list of scenarios with a reason each: the burn-down list (why it still fails) or the harness-skipped list (why the CLI skips it). */
export interface ExpectedFailures {
  readonly server: { readonly [scenario: string]: string };
  readonly client: { readonly [scenario: string]: string };
}

const NONE: ExpectedFailures = { server: {}, client: {} };

/** Checks whose warnings measure timing and may be retried under load (reconnect delay of sse-retry). */
export const TIMING_CHECKS: ReadonlySet<string> = new Set(["client-sse-retry-timing"]);

/** Scores one scenario's checks; `extra` adds problems the checks do not show (a client crash). */
export function score(suite: Suite, scenario: string, checks: readonly Check[] | undefined, extra: readonly string[] = [], attempts = 1): ScenarioResult {
  const list = checks ?? [];
  const count = (status: string): number => list.filter((c) => c.status === status).length;
  const problems: string[] = [];
  if (checks === undefined) problems.push("no results were written for this scenario");
  else if (count("SUCCESS") + count("FAILURE") === 0) problems.push("no check ran (a scenario with zero checks proves nothing)");
  for (const c of list) {
    if (c.status === "FAILURE") problems.push(`${c.id}: ${c.errorMessage ?? c.name ?? "failed"}`);
    if (c.status === "WARNING") problems.push(`warning ${c.id}: ${c.errorMessage ?? c.name ?? "warning"}`);
  }
  problems.push(...extra);
  const skippedChecks = list.filter((c) => c.status === "SKIPPED").map((c) => ({ id: c.id, ...(c.name === undefined ? {} : { name: c.name }), message: c.errorMessage ?? c.name ?? "skipped" }));
  return { suite, scenario, passed: count("SUCCESS"), failed: count("FAILURE"), warnings: count("WARNING"), skipped: skippedChecks.length, skippedChecks, problems, attempts };
}

/** True when the only problems are warnings of timing checks (worth one more attempt). */
export function onlyTimingWarnings(result: ScenarioResult): boolean {
  return result.problems.length > 0 && result.problems.every((p) => [...TIMING_CHECKS].some((id) => p.startsWith(`warning ${id}:`)));
}

/** The requirement sets of the pinned CLI that the run scores (`--requirements <set>`). */
export const REQUIREMENT_SETS = ["2025-11-25", "2026-07-28"] as const;

/** Where a scenario comes from: a requirement set, or `other` for client scenarios outside every set. */
export type ScenarioGroup = (typeof REQUIREMENT_SETS)[number] | "other";

/** A scenario list of every group. */
export type ExpectedFailureSets = { readonly [group in ScenarioGroup]: ExpectedFailures };

/** Reads and checks a scenario list (burn-down or harness-skipped): `{ "<group>": { "server": {...}, "client": {...} } }`. */
export function loadScenarioLists(path: string): ExpectedFailureSets {
  const raw = JSON.parse(readFileSync(path, "utf8")) as { [key: string]: unknown };
  const groups: readonly ScenarioGroup[] = [...REQUIREMENT_SETS, "other"];
  const unknown = Object.keys(raw).filter((key) => key !== "$comment" && !(groups as readonly string[]).includes(key));
  if (unknown.length > 0) throw new TypeError(`${path}: unknown group ${unknown.join(", ")} (groups are ${groups.join(", ")})`);
  const section = (value: unknown, name: string): { [scenario: string]: string } => {
    if (value === undefined) return {};
    if (typeof value !== "object" || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === "string" && v !== "")) {
      throw new TypeError(`${path}: "${name}" must map scenario names to a reason (a non-empty string)`);
    }
    return value as { [scenario: string]: string };
  };
  const group = (name: ScenarioGroup): ExpectedFailures => {
    const value = (raw[name] ?? {}) as { server?: unknown; client?: unknown };
    return { server: section(value.server, `${name}.server`), client: section(value.client, `${name}.client`) };
  };
  return { "2025-11-25": group("2025-11-25"), "2026-07-28": group("2026-07-28"), other: group("other") };
}

/** True when every check of `result` is SKIPPED (and there is at least one). */
export function allSkipped(result: ScenarioResult): boolean {
  return result.skipped > 0 && result.passed + result.failed + result.warnings === 0;
}

/** True when `result` is a scenario of the harness-skipped list that the CLI still skips entirely. */
export function isHarnessSkipped(result: ScenarioResult, skipped: ExpectedFailures): boolean {
  return skipped[result.suite][result.scenario] !== undefined && allSkipped(result);
}

/** Every problem of `result`: its own, the SKIPPED checks the harness-skipped list does not accept, and that list's entries for it that no longer match. */
export function problemsOf(result: ScenarioResult, skipped: ExpectedFailures = NONE): string[] {
  const prefix = `${result.scenario}#`;
  const accepted = Object.keys(skipped[result.suite]).filter((key) => key.startsWith(prefix));
  /** True when `key` (`scenario#id` or `scenario#id#name`) accepts the SKIPPED check `c`. */
  const accepts = (key: string, c: ScenarioResult["skippedChecks"][number]): boolean => key === prefix + c.id || (c.name !== undefined && key === `${prefix}${c.id}#${c.name}`);
  const unaccepted = result.skippedChecks.filter((c) => !accepted.some((key) => accepts(key, c))).map((c) => `skipped ${c.id}${c.name === undefined ? "" : ` (${c.name})`}: ${c.message}`);
  const unused = accepted.filter((key) => !result.skippedChecks.some((c) => accepts(key, c)));
  return [
    ...result.problems,
    ...unaccepted,
    ...unused.map((key) => `test/conformance/harness-skipped.json accepts SKIPPED ${key}, but no such check was skipped: remove the entry so that the check is scored`),
  ];
}

/** What is wrong with `result` against the burn-down and harness-skipped lists: undefined when it is as expected. */
export function judge(result: ScenarioResult, expected: ExpectedFailures, skipped: ExpectedFailures = NONE): string | undefined {
  const skipReason = skipped[result.suite][result.scenario];
  if (skipReason !== undefined) {
    if (allSkipped(result)) return undefined;
    return `${result.suite} scenario ${result.scenario} is in test/conformance/harness-skipped.json (${skipReason}) but now produces checks ` +
      `(${result.passed} passed, ${result.failed} failed, ${result.warnings} warnings): remove it from that list so that it is scored`;
  }
  const reason = expected[result.suite][result.scenario];
  const problems = problemsOf(result, skipped);
  const failing = problems.length > 0;
  if (failing && reason === undefined) return `${result.suite} scenario ${result.scenario} fails:\n  ${problems.join("\n  ")}`;
  if (!failing && reason !== undefined) {
    return `${result.suite} scenario ${result.scenario} now passes: remove it from test/conformance/expected-failures.json (it said: ${reason})`;
  }
  return undefined;
}

/** Entries of the list that name no scenario of the run (renamed or removed upstream); `scenario#check` entries count by their scenario. */
export function unknownEntries(expected: ExpectedFailures, suite: Suite, ran: readonly string[]): string[] {
  return Object.keys(expected[suite]).filter((name) => !ran.includes(name.split("#")[0] ?? name));
}

function verdictOf(r: ScenarioResult, expected: ExpectedFailures, skipped: ExpectedFailures): string {
  if (skipped[r.suite][r.scenario] !== undefined) return allSkipped(r) ? "harness skipped" : "FAIL (skipped list: remove)";
  const known = expected[r.suite][r.scenario] !== undefined;
  return problemsOf(r, skipped).length === 0 ? (known ? "PASS (listed: remove)" : "pass") : known ? "expected failure" : "FAIL";
}

/**
 * A plain-text table of scenarios and checks, with totals per suite: scenarios passed out of
 * those scored, checks, warnings, skipped checks, and the harness-skipped scenarios by name.
 */
export function formatTable(results: readonly ScenarioResult[], expected: ExpectedFailures, skipped: ExpectedFailures = NONE): string {
  const width = Math.max(8, ...results.map((r) => r.scenario.length));
  const lines = [`${"scenario".padEnd(width)}  suite   checks  passed  failed  warn  skip  verdict`];
  for (const r of results) {
    const retried = r.attempts > 1 ? ` (${r.attempts} attempts)` : "";
    const counts = [r.passed + r.failed, r.passed, r.failed].map((n) => String(n).padStart(6)).join("  ");
    lines.push(`${r.scenario.padEnd(width)}  ${r.suite.padEnd(6)}  ${counts}  ${String(r.warnings).padStart(4)}  ${String(r.skipped).padStart(4)}  ${verdictOf(r, expected, skipped)}${retried}`);
  }
  for (const suite of ["server", "client"] as const) {
    const of = results.filter((r) => r.suite === suite);
    if (of.length === 0) continue;
    const harness = of.filter((r) => isHarnessSkipped(r, skipped));
    const scored = of.filter((r) => !harness.includes(r));
    const ok = scored.filter((r) => problemsOf(r, skipped).length === 0).length;
    const sum = (pick: (r: ScenarioResult) => number): number => of.reduce((n, r) => n + pick(r), 0);
    const skippedNote = harness.length === 0 ? "" : `; ${harness.length} skipped by the harness itself (${harness.map((r) => r.scenario).join(", ")})`;
    lines.push(
      `${suite}: ${ok}/${scored.length} scenarios passed, ${sum((r) => r.passed)}/${sum((r) => r.passed + r.failed)} checks passed, ` +
        `${sum((r) => r.warnings)} warnings, ${sum((r) => r.skipped)} skipped checks${skippedNote}`,
    );
  }
  return lines.join("\n");
}
