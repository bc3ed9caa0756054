/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
 * test/package.json) against the built everything example:
 * - the server suite (`--suite active`) against `examples/everything/dist/server.js --port 0`
 *   over Streamable HTTP;
 * - every client scenario, one at a time, with `examples/everything/dist/client.js` as the client.
 * Checks are counted per scenario; `expected-failures.json` is the burn-down list. Nothing is
 * built here: the root `pnpm test` builds first (this file says so when dist is missing).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checksOf, parseScenarioList, readChecks, runCli, startEverythingServer } from "./cli";
import { assertPrerequisites, CONFORMANCE_CLI, EVERYTHING, NODE20_SHIM, REPO_ROOT } from "./paths";
import { formatTable, judge, loadExpectedFailures, onlyTimingWarnings, score, unknownEntries, type ScenarioResult } from "./verdict";

assertPrerequisites();

const expected = loadExpectedFailures(join(REPO_ROOT, "test/conformance/expected-failures.json"));
const listing = execFileSync(process.execPath, ["--import", NODE20_SHIM, CONFORMANCE_CLI, "list"], { encoding: "utf8" });
const clientScenarios = parseScenarioList(listing, "Client");
const workDir = mkdtempSync(join(tmpdir(), "proto-conformance-"));
const results: ScenarioResult[] = [];
const serverScenarios: string[] = [];

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
  if (results.length > 0) console.log(`\nMCP conformance (@modelcontextprotocol/conformance, pinned)\n${formatTable(results, expected)}\n`);
});

/** The last lines of a text, for failure messages. */
function tail(text: string, lines = 15): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

async function runClientScenario(scenario: string, attempt: number): Promise<ScenarioResult> {
  const out = join(workDir, "client", `${attempt}-${scenario.replace(/\//g, "_")}`);
  const command = `"${process.execPath}" "${EVERYTHING.client}"`;
  const run = await runCli(["client", "--command", command, "--scenario", scenario, "-o", out], 150_000);
  const results = readChecks(out);
  const [dir, checks] = [...results.entries()][0] ?? [undefined, undefined];
  const extra: string[] = [];
  const clientErr = dir === undefined ? "" : readFileSync(join(out, dir, "stderr.txt"), "utf8");
  if (/CLIENT TIMED OUT/.test(run.stderr)) extra.push(`the client timed out; its stderr:\n${tail(clientErr)}`);
  const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(run.stderr);
  if (exited) extra.push(`the client exited with code ${exited[1]}; its stderr:\n${tail(clientErr)}`);
  const result = score("client", scenario, checks, extra, attempt);
  if (run.code !== 0 && result.problems.length === 0) {
    return { ...result, problems: [`the conformance CLI exited with ${String(run.code)}:\n${tail(run.stderr + run.stdout)}`] };
  }
  return result;
}

describe.sequential("MCP conformance", () => {
  it("server suite (active) against the everything server over Streamable HTTP", async () => {
    const server = await startEverythingServer();
    let run;
    try {
      run = await runCli(["server", "--url", server.url, "--suite", "active", "-o", join(workDir, "server")], 300_000);
    } finally {
      await server.stop();
    }
    const checks = readChecks(join(workDir, "server"));
    for (const match of run.stdout.matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed$/gm)) if (match[1] !== undefined) serverScenarios.push(match[1]);
    expect(serverScenarios.length, `the CLI reported no scenario:\n${tail(run.stdout + run.stderr, 40)}`).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const scenario of serverScenarios) {
      const result = score("server", scenario, checksOf(checks, scenario, "server-"));
      results.push(result);
      const verdict = judge(result, expected);
      if (verdict !== undefined) problems.push(verdict);
    }
    problems.push(...unknownEntries(expected, "server", serverScenarios).map((name) => `expected-failures.json lists server scenario ${name}, which did not run: remove it`));
    expect(problems, `server log:\n${tail(server.output())}`).toEqual([]);
  }, 360_000);

  it("lists the client scenarios of the pinned CLI", () => {
    expect(clientScenarios.length, listing).toBeGreaterThan(0);
    expect(unknownEntries(expected, "client", clientScenarios).map((name) => `expected-failures.json lists client scenario ${name}, which does not exist: remove it`)).toEqual([]);
  });

  for (const scenario of clientScenarios) {
    it(`client scenario ${scenario}`, async () => {
      let result = await runClientScenario(scenario, 1);
      // Only a reconnect-timing warning (sse-retry under load) earns another attempt.
      while (onlyTimingWarnings(result) && result.attempts < 3) result = await runClientScenario(scenario, result.attempts + 1);
      results.push(result);
      expect(judge(result, expected)).toBeUndefined();
    }, 480_000);
  }
});
