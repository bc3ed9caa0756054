/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
 * test/package.json) against the built everything example, for each requirement set the CLI
 * freezes (2025-11-25 and 2026-07-28):
 * - the server set (`server --requirements <set>`) against `examples/everything/dist/server.js
 *   --port 0` over Streamable HTTP; the scenarios the CLI reports as not scored are shown, not
 *   judged, except the tasks extension's (`tasks-*`, not scored by the CLI today), which are
 *   judged with the set that runs them, and must all have run;
 * - every client scenario of the set, one at a time (`client --scenario S --spec-version <set>`),
 *   with `examples/everything/dist/client.js` as the client;
 * - the client scenarios outside both sets (older revisions, extensions), at each revision they name.
 * Checks are counted per scenario; `expected-failures.json` is the burn-down list, per group, and
 * `harness-skipped.json` names the scenarios the pinned CLI itself skips (see verdict.ts). The
 * summary says how many of the scenarios a server run does not score pass.
 * Nothing is built here: the root `pnpm test` builds first (this file says so when dist is missing).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checksOf, parseClientVersions, parseScenarioList, parseUnscored, readChecks, runCli, startEverythingServer } from "./cli";
import { assertPrerequisites, CONFORMANCE_CLI, EVERYTHING, NODE20_SHIM, REPO_ROOT } from "./paths";
import { formatTable, isHarnessSkipped, judge, loadScenarioLists, onlyTimingWarnings, problemsOf, REQUIREMENT_SETS, score, unknownEntries, type ScenarioGroup, type ScenarioResult } from "./verdict";

assertPrerequisites();

const expected = loadScenarioLists(join(REPO_ROOT, "test/conformance/expected-failures.json"));
const harnessSkipped = loadScenarioLists(join(REPO_ROOT, "test/conformance/harness-skipped.json"));
const list = (...args: string[]): string => execFileSync(process.execPath, ["--import", NODE20_SHIM, CONFORMANCE_CLI, "list", ...args], { encoding: "utf8" });
const clientSets = new Map(REQUIREMENT_SETS.map((set) => [set, parseScenarioList(list("--requirements", set), "Client")]));
const inSomeSet = new Set([...clientSets.values()].flat());
const otherClients = [...parseClientVersions(list()).entries()].filter(([name]) => !inSomeSet.has(name));
const workDir = mkdtempSync(join(tmpdir(), "proto-conformance-"));
const results = new Map<ScenarioGroup, ScenarioResult[]>();
const unscoredShown: string[] = [];
/** Per server run, the verdict of each scenario the CLI does not score (judged or shown). */
const unscoredTally: string[] = [];
/** Not scored by the CLI, judged here all the same: the tasks extension (io.modelcontextprotocol/tasks). */
const JUDGED_UNSCORED = /^tasks-/;
const taskScenarios = parseScenarioList(list(), "Server").filter((name) => JUDGED_UNSCORED.test(name));

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  for (const [group, of] of results) {
    if (of.length > 0) console.log(`\nMCP conformance (@modelcontextprotocol/conformance, pinned), ${group}\n${formatTable(of, expected[group], harnessSkipped[group])}\n`);
  }
  if (unscoredShown.length > 0) console.log(`Not scored (shown, not judged):\n  ${unscoredShown.join("\n  ")}\n`);
  if (unscoredTally.length > 0) console.log(`Scenarios the CLI does not score:\n  ${unscoredTally.join("\n  ")}\n`);
});

/** The last lines of a text, for failure messages. */
function tail(text: string, lines = 15): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

function record(group: ScenarioGroup, result: ScenarioResult): void {
  const of = results.get(group) ?? [];
  of.push(result);
  results.set(group, of);
}

async function runServerSet(set: (typeof REQUIREMENT_SETS)[number]): Promise<void> {
  const server = await startEverythingServer();
  const out = join(workDir, `server-${set}`);
  let run;
  try {
    run = await runCli(["server", "--url", server.url, "--requirements", set, "-o", out], 300_000);
  } finally {
    await server.stop();
  }
  const checks = readChecks(out);
  const unscored = new Set(parseUnscored(run.stdout));
  const ran: string[] = [];
  for (const match of run.stdout.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed$/gm)) if (match[1] !== undefined) ran.push(match[1]);
  expect(ran.length, `the CLI reported no scenario:\n${tail(run.stdout + run.stderr, 40)}`).toBeGreaterThan(0);
  const problems: string[] = [];
  const tally = { pass: 0, fail: 0, harness: [] as string[] };
  for (const scenario of ran) {
    const result = score("server", scenario, checksOf(checks, scenario, "server-"));
    if (unscored.has(scenario)) {
      if (isHarnessSkipped(result, harnessSkipped[set])) tally.harness.push(scenario);
      else if (problemsOf(result, harnessSkipped[set]).length === 0) tally.pass++;
      else tally.fail++;
    }
    if (unscored.has(scenario) && !JUDGED_UNSCORED.test(scenario)) {
      unscoredShown.push(`${set} server ${scenario}: ${problemsOf(result, harnessSkipped[set]).length === 0 ? "pass" : `fails (${result.failed} failed checks)`}`);
      continue;
    }
    record(set, result);
    const verdict = judge(result, expected[set], harnessSkipped[set]);
    if (verdict !== undefined) problems.push(verdict);
  }
  if (unscored.size > 0) {
    const harness = tally.harness.length === 0 ? "" : `, ${tally.harness.length} skipped by the harness itself (${tally.harness.join(", ")})`;
    unscoredTally.push(`${set} server: ${tally.pass}/${unscored.size} pass, ${tally.fail} fail${harness}`);
  }
  const scored = ran.filter((name) => !unscored.has(name) || JUDGED_UNSCORED.test(name));
  if (set === "2026-07-28") {
    const missing = taskScenarios.filter((name) => !ran.includes(name));
    problems.push(...missing.map((name) => `tasks scenario ${name} did not run in the ${set} server run`));
    expect(taskScenarios.length, "the pinned CLI lists no tasks-* server scenario").toBeGreaterThan(0);
  }
  problems.push(...unknownEntries(expected[set], "server", scored).map((name) => `expected-failures.json lists ${set} server scenario ${name}, which did not run: remove it`));
  problems.push(...unknownEntries(harnessSkipped[set], "server", scored).map((name) => `harness-skipped.json lists ${set} server scenario ${name}, which did not run: remove it`));
  expect(problems, `server log:\n${tail(server.output())}`).toEqual([]);
}

async function runClientScenario(group: ScenarioGroup, scenario: string, version: string, attempt: number): Promise<ScenarioResult> {
  const out = join(workDir, "client", `${version}-${attempt}-${scenario.replace(/\//g, "_")}`);
  const command = `"${process.execPath}" "${EVERYTHING.client}"`;
  const run = await runCli(["client", "--command", command, "--scenario", scenario, "--spec-version", version, "--force", "-o", out], 150_000);
  const found = readChecks(out);
  const [dir, checks] = [...found.entries()][0] ?? [undefined, undefined];
  const extra: string[] = [];
  const clientErr = dir === undefined ? "" : readFileSync(join(out, dir, "stderr.txt"), "utf8");
  if (/CLIENT TIMED OUT/.test(run.stderr)) extra.push(`the client timed out; its stderr:\n${tail(clientErr)}`);
  const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(run.stderr);
  if (exited) extra.push(`the client exited with code ${exited[1]}; its stderr:\n${tail(clientErr)}`);
  const result = score("client", scenario, checks, extra, attempt);
  if (run.code !== 0 && problemsOf(result, harnessSkipped[group]).length === 0) {
    return { ...result, problems: [`the conformance CLI exited with ${String(run.code)}:\n${tail(run.stderr + run.stdout)}`] };
  }
  return result;
}

function clientTest(group: ScenarioGroup, scenario: string, version: string): void {
  it(`client scenario ${scenario} (${group === "other" ? `at ${version}` : group})`, async () => {
    let result = await runClientScenario(group, scenario, version, 1);
    // Only a reconnect-timing warning (sse-retry under load) earns another attempt.
    while (onlyTimingWarnings(result) && result.attempts < 3) result = await runClientScenario(group, scenario, version, result.attempts + 1);
    record(group, result);
    expect(judge(result, expected[group], harnessSkipped[group])).toBeUndefined();
  }, 480_000);
}

describe.sequential("MCP conformance", () => {
  for (const set of REQUIREMENT_SETS) {
    it(`server requirements ${set} against the everything server over Streamable HTTP`, () => runServerSet(set), 360_000);
  }

  it("lists the client scenarios of the pinned CLI, and the burn-down list names only those", () => {
    for (const [set, names] of clientSets) {
      expect(names.length, `no client scenario for ${set}`).toBeGreaterThan(0);
      for (const [file, lists] of [["expected-failures.json", expected], ["harness-skipped.json", harnessSkipped]] as const) {
        expect(unknownEntries(lists[set], "client", names).map((name) => `${file} lists ${set} client scenario ${name}, which is not in the set: remove it`)).toEqual([]);
      }
    }
    const others = otherClients.map(([name]) => name);
    for (const [file, lists] of [["expected-failures.json", expected], ["harness-skipped.json", harnessSkipped]] as const) {
      expect(unknownEntries(lists.other, "client", others).map((name) => `${file} lists other client scenario ${name}, which does not exist: remove it`)).toEqual([]);
      expect(Object.keys(lists.other.server), `the other group of ${file} holds client scenarios only`).toEqual([]);
    }
  });

  for (const [set, names] of clientSets) for (const scenario of names) clientTest(set, scenario, set);
  for (const [scenario, versions] of otherClients) for (const version of versions) clientTest("other", scenario, version);
});
