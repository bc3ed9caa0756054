/**
 * Runs the conformance CLI and the everything server as child processes, and reads the
 * checks the CLI writes (`<output dir>/.../checks.json`, one file per scenario).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE_CLI, EVERYTHING, NODE20_SHIM } from "./paths";

/** One check as the CLI records it. */
export interface Check {
  readonly id: string;
  readonly name?: string;
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED" | string;
  readonly errorMessage?: string;
}

/** What a finished CLI run left behind. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI with `args` (after the shim); resolves when it exits (never rejects for a non-zero exit). */
export function runCli(args: readonly string[], timeoutMs: number): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", NODE20_SHIM, CONFORMANCE_CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The scenario names of one section (`Server scenarios` or `Client scenarios`) of `conformance list`. */
export function parseScenarioList(listing: string, section: "Server" | "Client"): string[] {
  const start = listing.indexOf(`${section} scenarios`);
  if (start < 0) return [];
  const names: string[] = [];
  for (const line of listing.slice(start).split("\n").slice(1)) {
    const match = /^\s+-\s+(\S+)/.exec(line);
    if (match?.[1] !== undefined) names.push(match[1]);
    else if (line.trim() !== "") break;
  }
  return names;
}

/**
 * The scenarios a `server --requirements <set>` run reports under "Not scored for <set>"
 * (extensions, pending and added-after-release scenarios): run and shown, never judged.
 */
export function parseUnscored(stdout: string): string[] {
  const start = stdout.indexOf("Not scored for ");
  if (start < 0) return [];
  const names: string[] = [];
  for (const match of stdout.slice(start).matchAll(/^\s+[✓✗] (\S+) \(/gm)) if (match[1] !== undefined) names.push(match[1]);
  return names;
}

/**
 * Client scenarios of the full `list` with the revisions each names (`- name [2025-11-25,...]`,
 * `[extension]`): every listed date, in order; `["2025-11-25"]` (the CLI's default) when none is.
 */
export function parseClientVersions(listing: string): Map<string, string[]> {
  const start = listing.indexOf("Client scenarios");
  const versions = new Map<string, string[]>();
  if (start < 0) return versions;
  for (const line of listing.slice(start).split("\n").slice(1)) {
    const match = /^\s+-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
    if (match?.[1] === undefined) {
      if (line.trim() !== "") break;
      continue;
    }
    const dated = (match[2] ?? "").split(",").map((v) => v.trim()).filter((v) => /^\d{4}-\d\d-\d\d$/.test(v));
    versions.set(match[1], dated.length > 0 ? dated : ["2025-11-25"]);
  }
  return versions;
}

/** Every `checks.json` under `dir`, by the path of its directory relative to `dir`. */
export function readChecks(dir: string): Map<string, Check[]> {
  const found = new Map<string, Check[]>();
  const walk = (at: string, rel: string): void => {
    for (const entry of readdirSync(at)) {
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path, rel === "" ? entry : `${rel}/${entry}`);
      else if (entry === "checks.json") found.set(rel, JSON.parse(readFileSync(path, "utf8")) as Check[]);
    }
  };
  if (existsSync(dir)) walk(dir, "");
  return found;
}

/** The checks of `scenario` among the result directories (`[server-]<scenario>-<timestamp>`). */
export function checksOf(results: ReadonlyMap<string, Check[]>, scenario: string, prefix = ""): Check[] | undefined {
  const pattern = new RegExp(`^${(prefix + scenario).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-\\d{4}-\\d\\d-\\d\\dT`);
  for (const [dir, checks] of results) if (pattern.test(dir)) return checks;
  return undefined;
}

/** A running `server.js --port 0`. */
export interface RunningServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Output the server wrote to stderr (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Starts the built everything server on a free port (node run with `nodeFlags`); resolves once it printed its endpoint. */
export function startEverythingServer(nodeFlags: readonly string[] = []): Promise<RunningServer> {
  const child = spawn(process.execPath, [...nodeFlags, EVERYTHING.server, "--port", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /MCP endpoint (http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) resolve({ url: match[1], child, output: () => output, stop });
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the everything server exited (code ${String(code)}) before listening:\n${output}`)));
  });
}
