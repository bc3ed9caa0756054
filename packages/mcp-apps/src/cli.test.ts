/** `proto-apps verify` as a process: spawned with `node --import tsx src/cli.ts`, checked by exit status and output. */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const cli = fileURLToPath(new URL("./cli.ts", import.meta.url));
const fixture = "packages/mcp-apps/src/weather.fixture.ts";
const stdioFixture = `node --import tsx packages/mcp-apps/src/weather-stdio.fixture.ts`;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", cli, ...args],
      { cwd: root, env: { ...process.env, TSX_TSCONFIG_PATH: `${root}tsconfig.json` }, timeout: 120_000 },
      (error, stdout, stderr) => done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr }),
    );
  });
}

// Each case starts Node with tsx (and, for --stdio, a second one): slow on a loaded machine, never timed.
const SLOW = { timeout: 240_000 };

describe("proto-apps verify", () => {
  it("exits 0 for a good server module (default export)", SLOW, async () => {
    const result = await run("verify", "--module", fixture);
    expect(result.stderr).toBe("");
    expect(result.stdout).toMatch(/^MCP Apps verification of weather 1\.0\.0\n/);
    expect(result.stdout).toMatch(/OK \(0 errors, 0 warnings\)\n$/);
    expect(result.code).toBe(0);
  });

  it("exits 1 for a broken server module (#export), printing the repair", SLOW, async () => {
    const result = await run("verify", "--module", `${fixture}#broken`);
    expect(result.stdout).toMatch(/FAIL ui\/link-integrity\n {2}error: tool "radar" links to ui:\/\/weather\/radar/);
    expect(result.stdout).toMatch(/repair: Register the view with apps\.resource\(\{ uri: "ui:\/\/weather\/radar"/);
    expect(result.stdout).toMatch(/FAILED \(2 errors, 0 warnings\)\n$/);
    expect(result.code).toBe(1);
  });

  it("exits 0 for a good stdio server and 1 for a broken one, with --json", SLOW, async () => {
    const [good, bad] = await Promise.all([run("verify", "--stdio", stdioFixture, "--json"), run("verify", "--stdio", `${stdioFixture} --broken`, "--json")]);
    expect(JSON.parse(good.stdout)).toMatchObject({ ok: true, server: { name: "weather" }, views: ["ui://weather/dashboard"] });
    expect(good.code).toBe(0);
    const report = JSON.parse(bad.stdout) as { ok: boolean; checks: { id: string; status: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => c.status === "fail").map((c) => c.id)).toEqual(["ui/link-integrity", "ui/content-shape"]);
    expect(bad.code).toBe(1);
  });

  it("exits 1 when the module or command cannot be loaded, and 2 for usage errors", SLOW, async () => {
    const [missingExport, missingCommand, usage, help] = await Promise.all([
      run("verify", "--module", `${fixture}#nope`),
      run("verify", "--stdio", "/nonexistent/proto-apps-server --stdio", "--timeout", "20000"),
      run("verify", "--module", fixture, "--stdio", "x"),
      run("--help"),
    ]);
    expect(missingExport.stderr).toMatch(/has no export "nope"; it exports .*broken/);
    expect(missingExport.code).toBe(1);
    expect(missingCommand.stderr).toMatch(/^proto-apps: could not start or connect to \/nonexistent\/proto-apps-server --stdio: /);
    expect(missingCommand.code).toBe(1);
    expect(usage.stderr).toMatch(/pass exactly one of --module or --stdio/);
    expect(usage.code).toBe(2);
    expect(help.stdout).toMatch(/^usage: proto-apps verify/);
    expect(help.code).toBe(0);
  });
});
