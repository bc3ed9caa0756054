import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checksOf, parseClientVersions, parseScenarioList, parseUnscored } from "./cli";
import { formatTable, isHarnessSkipped, judge, loadScenarioLists, onlyTimingWarnings, problemsOf, score, unknownEntries, type ExpectedFailures } from "./verdict";

const none: ExpectedFailures = { server: {}, client: {} };
const ok = { id: "a", status: "SUCCESS" } as const;
const bad = { id: "b", status: "FAILURE", errorMessage: "nope" } as const;
const skip = { id: "s", status: "SKIPPED", errorMessage: "harness rewrite pending" } as const;

describe("conformance verdicts", () => {
  it("counts checks and fails a scenario with a failed check, a warning, or no check at all", () => {
    expect(score("server", "s", [ok, ok, { id: "i", status: "INFO" }])).toMatchObject({ passed: 2, failed: 0, problems: [] });
    expect(score("server", "s", [ok, bad]).problems).toEqual(["b: nope"]);
    expect(score("client", "c", [ok, { id: "w", status: "WARNING" }]).problems).toEqual(["warning w: warning"]);
    expect(score("client", "c", [{ id: "i", status: "INFO" }]).problems).toHaveLength(1);
    expect(score("client", "c", undefined).problems).toHaveLength(1);
    expect(score("client", "c", [ok], ["the client exited with code 1"]).problems).toEqual(["the client exited with code 1"]);
  });

  it("fails a SKIPPED check unless the whole scenario is on the harness-skipped list, and fails a listed one that produces checks", () => {
    const skipped: ExpectedFailures = { server: { t: "the CLI skips it" }, client: {} };
    expect(score("server", "t", [ok, skip])).toMatchObject({ skipped: 1, problems: [] });
    expect(problemsOf(score("server", "u", [ok, skip]), skipped)).toEqual(["skipped s: harness rewrite pending"]);
    expect(judge(score("server", "u", [skip]), none, skipped)).toMatch(/fails/);
    expect(judge(score("server", "t", [skip]), none, skipped)).toBeUndefined();
    expect(isHarnessSkipped(score("server", "t", [skip]), skipped)).toBe(true);
    expect(judge(score("server", "t", [ok]), none, skipped)).toMatch(/harness-skipped.json .* now produces checks \(1 passed, 0 failed, 0 warnings\)/);
    expect(judge(score("server", "t", [skip, bad]), none, skipped)).toMatch(/now produces checks/);
    expect(judge(score("server", "t", undefined), none, skipped)).toMatch(/now produces checks/);
    const partial: ExpectedFailures = { server: {}, client: { "h#s": "the check does not apply to this wire" } };
    expect(judge(score("client", "h", [ok, skip, skip]), none, partial)).toBeUndefined();
    expect(judge(score("client", "h", [ok, { id: "x", status: "SKIPPED" }]), none, partial)).toMatch(/skipped x[\s\S]*accepts SKIPPED h#s, but no such check was skipped/);
    expect(judge(score("client", "h", [ok]), none, partial)).toMatch(/accepts SKIPPED h#s, but no such check was skipped: remove the entry/);
    expect(unknownEntries(partial, "client", ["h"])).toEqual([]);
    const named: ExpectedFailures = { server: {}, client: { "h#s#Method_initialize": "the client never sends initialize on this wire" } };
    const skipNamed = (name: string) => ({ ...skip, name });
    expect(judge(score("client", "h", [ok, skipNamed("Method_initialize")]), none, named)).toBeUndefined();
    expect(judge(score("client", "h", [ok, skipNamed("Method_initialize"), skipNamed("Method_tools_call")]), none, named)).toMatch(/skipped s \(Method_tools_call\): harness rewrite pending/);
    expect(judge(score("client", "h", [ok, skipNamed("Method_tools_call")]), none, named)).toMatch(/accepts SKIPPED h#s#Method_initialize, but no such check was skipped/);
    expect(unknownEntries(named, "client", ["h"])).toEqual([]);
    const table = formatTable([score("server", "t", [skip]), score("server", "p", [ok])], none, skipped);
    expect(table).toMatch(/^t .* harness skipped$/m);
    expect(table).toContain("server: 1/1 scenarios passed, 1/1 checks passed, 0 warnings, 1 skipped checks; 1 skipped by the harness itself (t)");
  });

  it("retries only scenarios whose sole problem is a timing warning", () => {
    expect(onlyTimingWarnings(score("client", "sse-retry", [ok, { id: "client-sse-retry-timing", status: "WARNING" }]))).toBe(true);
    expect(onlyTimingWarnings(score("client", "sse-retry", [bad, { id: "client-sse-retry-timing", status: "WARNING" }]))).toBe(false);
    expect(onlyTimingWarnings(score("client", "x", [ok]))).toBe(false);
  });

  it("fails on a new failure and on a listed scenario that now passes, not on a known failure", () => {
    const listed: ExpectedFailures = { server: {}, client: { c: "waits for a fix" } };
    expect(judge(score("client", "c", [bad]), none)).toMatch(/fails/);
    expect(judge(score("client", "c", [bad]), listed)).toBeUndefined();
    expect(judge(score("client", "c", [ok]), listed)).toMatch(/now passes: remove it/);
    expect(judge(score("client", "c", [ok]), none)).toBeUndefined();
    expect(unknownEntries(listed, "client", ["d"])).toEqual(["c"]);
  });

  it("reads the burn-down list and refuses entries without a reason", () => {
    const dir = mkdtempSync(join(tmpdir(), "expected-"));
    try {
      const file = join(dir, "x.json");
      writeFileSync(file, JSON.stringify({ $comment: "c", "2026-07-28": { client: { "auth/x": "why" } } }));
      expect(loadScenarioLists(file)).toEqual({ "2025-11-25": none, "2026-07-28": { server: {}, client: { "auth/x": "why" } }, other: none });
      writeFileSync(file, JSON.stringify({ "2026-07-28": { client: { "auth/x": "" } } }));
      expect(() => loadScenarioLists(file)).toThrow(/reason/);
      writeFileSync(file, JSON.stringify({ draft: {} }));
      expect(() => loadScenarioLists(file)).toThrow(/unknown group draft/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("parses the CLI's scenario listing and result directories", () => {
    const listing = "Server scenarios (test against a server):\n  - ping [2025-06-18]\n\nClient scenarios (test against a client):\n  - initialize [2025-06-18]\n  - auth/basic-cimd [2025-11-25]\n";
    expect(parseScenarioList(listing, "Server")).toEqual(["ping"]);
    expect(parseScenarioList(listing, "Client")).toEqual(["initialize", "auth/basic-cimd"]);
    const dirs = new Map([
      ["server-resources-unsubscribe-2026-01-01T00-00-00-000Z", [bad]],
      ["server-resources-subscribe-2026-01-01T00-00-00-000Z", [ok]],
    ]);
    expect(checksOf(dirs, "resources-subscribe", "server-")).toEqual([ok]);
    const full = "Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - auth/dpop [extension]\n  - auth/old [2025-03-26]\n\nAuthorization server scenarios:\n  - x [2025-03-26]\n";
    expect([...parseClientVersions(full)]).toEqual([["initialize", ["2025-06-18", "2025-11-25"]], ["auth/dpop", ["2025-11-25"]], ["auth/old", ["2025-03-26"]]]);
    const run = "Total: 1 passed\n\nNot scored for 2026-07-28: 2 scenario(s) run, 1 failing.\n  ✗ tasks-lifecycle (extension)\n  ✓ json-schema-2020-12 (pending)\n";
    expect(parseUnscored(run)).toEqual(["tasks-lifecycle", "json-schema-2020-12"]);
    expect(parseUnscored("Total: 1 passed\n")).toEqual([]);
  });

  it("prints totals per suite", () => {
    const table = formatTable([score("server", "ping", [ok]), score("client", "initialize", [ok, bad])], none);
    expect(table).toContain("server: 1/1 scenarios passed, 1/1 checks passed, 0 warnings, 0 skipped checks");
    expect(table).toContain("client: 0/1 scenarios passed, 1/2 checks passed, 0 warnings, 0 skipped checks");
  });
});
