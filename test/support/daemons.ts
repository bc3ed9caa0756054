/**
 * Real daemons for the multi-instance tests (test/cluster, packages/redis-stores): a
 * `redis-server` and an HAProxy, each started on free 127.0.0.1 ports in a temporary directory
 * and stopped by the test. `.ci/run` installs the Debian packages; without them the tests that
 * need them are skipped with a message naming what is missing (under CI they fail instead).
 */
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The path of `name` on PATH (or in /usr/sbin, where Debian puts haproxy), else undefined. */
export function findBinary(name: string): string | undefined {
  for (const dir of [...(process.env.PATH ?? "").split(":"), "/usr/sbin", "/usr/local/sbin"]) {
    if (dir === "") continue;
    const path = join(dir, name);
    if (spawnSync("test", ["-x", path]).status === 0) return path;
  }
  return undefined;
}

/**
 * Why a daemon test cannot run here, or undefined when it can. Under CI (`CI` set, as `.ci/run`
 * and CI services set it) a missing daemon is an error, not a skip: a CI run that skipped the
 * multi-instance tests would pass without testing them.
 */
export function missingDaemons(...names: string[]): string | undefined {
  const missing = names.filter((name) => findBinary(name) === undefined);
  if (missing.length === 0) return undefined;
  const install = `apt-get install -y ${missing.join(" ")}, as .ci/run does`;
  if (process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false") throw new Error(`${missing.join(", ")} not installed, and CI is set, so the tests that need them may not be skipped: ${install}`);
  return `SKIPPED: ${missing.join(", ")} not installed (${install})`;
}

/** A free TCP port on 127.0.0.1 (bound then released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => (socket.destroy(), resolve(false)));
  });
}

/** A started daemon. */
export interface Daemon {
  readonly port: number;
  readonly process: ChildProcess;
  /** Stops it (SIGTERM, then SIGKILL after 2 s) and removes its directory. */
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs} ms; output: ${seen.slice(-500)}`)), timeoutMs);
    const check = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", check);
    child.stderr?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${String(code)}: ${seen.slice(-500)}`));
    });
  });
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 2_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
}

/** A redis-server that can be killed and started again on its port and data. */
export interface RedisDaemon extends Daemon {
  /** SIGKILLs it (Redis gone: clients see errors). */
  kill(): Promise<void>;
  /** Starts it again on the same port and directory (its append-only file restores the data). */
  start(): Promise<void>;
}

/** Starts `redis-server` on a free port with an append-only file (fsync always), so a restart keeps the data. */
export async function startRedis(): Promise<RedisDaemon> {
  const binary = findBinary("redis-server");
  if (binary === undefined) throw new Error("redis-server is not installed: apt-get install -y redis-server");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "proto-redis-"));
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "yes", "--appendfsync", "always", "--protected-mode", "no"];
  let child: ChildProcess;
  const start = async (): Promise<void> => {
    child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    await waitFor(child, /Ready to accept connections/, "redis-server");
  };
  await start();
  return {
    port,
    get process() {
      return child;
    },
    start,
    async kill() {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGKILL");
      await exited;
    },
    stop: () => stopper(child, dir)(),
  };
}

/** Starts HAProxy round-robin (no stickiness) over `backends` (127.0.0.1 ports), with health checks on `healthPath`. */
export async function startHaproxy(backends: readonly number[], healthPath = "/health"): Promise<Daemon> {
  const binary = findBinary("haproxy");
  if (binary === undefined) throw new Error("haproxy is not installed: apt-get install -y haproxy");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "proto-haproxy-"));
  const config = [
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode http",
    "  timeout connect 1s",
    "  timeout check 2s",
    "  timeout client 120s",
    "  timeout server 120s",
    "  retries 3",
    "  option redispatch 1",
    "  option http-server-close",
    `frontend mcp`,
    `  bind 127.0.0.1:${port}`,
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    `  option httpchk GET ${healthPath}`,
    "  retry-on conn-failure",
    ...backends.map((backend, i) => `  server i${i} 127.0.0.1:${backend} check inter 250ms fall 2 rise 1`),
    "",
  ].join("\n");
  const file = join(dir, "haproxy.cfg");
  writeFileSync(file, config);
  const check = spawnSync(binary, ["-c", "-f", file]);
  if (check.status !== 0) throw new Error(`haproxy refused its config: ${check.stderr.toString()}${check.stdout.toString()}`);
  const child = spawn(binary, ["-db", "-f", file], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // listening, not merely spawned: on a loaded machine binding takes longer than any fixed pause
  for (const deadline = Date.now() + 10_000; !(await accepts(port)); ) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${output.slice(-500)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`haproxy did not listen on 127.0.0.1:${port} within 10 s: ${output.slice(-500)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { port, process: child, stop: stopper(child, dir) };
}
