/**
 * The deployment the cluster tests and the bench drive: a real redis-server, three instances of
 * `instance.fixture.ts` (child processes, so one can be killed with SIGKILL) and HAProxy
 * round-robin in front of them, all on free 127.0.0.1 ports; plus a raw Streamable HTTP client
 * that shows which instance answered each request.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Daemon, RedisDaemon } from "../support/daemons";
import { freePort, startHaproxy, startRedis } from "../support/daemons";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = fileURLToPath(new URL("./instance.fixture.ts", import.meta.url));
let bundled: Promise<string> | undefined;

/** The fixture bundled once per test process (an instance then starts in about a second, not ten under tsx). */
function bundle(): Promise<string> {
  bundled ??= (async () => {
    const outfile = join(mkdtempSync(join(tmpdir(), "proto-cluster-")), "instance.mjs");
    await build({
      entryPoints: [FIXTURE],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      tsconfig: join(REPO_ROOT, "tsconfig.json"),
      logLevel: "warning",
      banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    });
    return outfile;
  })();
  return bundled;
}

/** One instance: its name and port; `kill` is SIGKILL, `start` brings it back on the same port. */
export interface Instance {
  readonly name: string;
  readonly port: number;
  readonly alive: boolean;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts one instance process and resolves once it listens. */
export async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = env.PORT === undefined ? await freePort() : Number(env.PORT);
  let child: ChildProcess | undefined;
  const script = await bundle();
  const start = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const next = spawn(process.execPath, [script], { cwd: REPO_ROOT, env: { ...process.env, ...env, PORT: String(port), INSTANCE: name }, stdio: ["ignore", "pipe", "pipe"] });
      child = next;
      let output = "";
      const timer = setTimeout(() => reject(new Error(`instance ${name} did not start: ${output.slice(-500)}`)), 20_000);
      next.stdout?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("listening")) {
          clearTimeout(timer);
          resolve();
        }
      });
      next.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
      next.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`instance ${name} exited with ${String(code)}: ${output.slice(-500)}`));
      });
    });
  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const current = child;
    if (current === undefined || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => current.once("exit", () => resolve()));
    current.kill(sig);
    await exited;
  };
  await start();
  return {
    name,
    port,
    get alive() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    kill: () => signal("SIGKILL"),
    start,
    stop: () => signal("SIGTERM"),
  };
}

/** The whole deployment. */
export interface Cluster {
  /** The balancer's MCP endpoint. */
  readonly url: string;
  readonly redis: RedisDaemon;
  readonly balancer: Daemon;
  readonly instances: readonly Instance[];
  stop(): Promise<void>;
}

/** Starts Redis, `count` instances and HAProxy in front of them. */
export async function startCluster(options: { count?: number; env?: Record<string, string> } = {}): Promise<Cluster> {
  const redis = await startRedis();
  const names = ["a", "b", "c", "d", "e"].slice(0, options.count ?? 3);
  const instances = await Promise.all(names.map((name) => startInstance(name, { REDIS_URL: `redis://127.0.0.1:${redis.port}`, ...options.env })));
  const balancer = await startHaproxy(instances.map((i) => i.port));
  return {
    url: `http://127.0.0.1:${balancer.port}/mcp`,
    redis,
    balancer,
    instances,
    async stop() {
      await balancer.stop();
      await Promise.all(instances.map((i) => i.stop()));
      await redis.stop();
    },
  };
}

/** One SSE event. */
export interface SseEvent {
  readonly id: string | undefined;
  readonly data: string;
}

/** Reads SSE events from a response body as they arrive (events without data, like priming, are yielded with data ""). */
export async function* readSse(response: Response): AsyncGenerator<SseEvent> {
  const reader = response.body?.getReader();
  if (reader === undefined) return;
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (id !== undefined || data.length > 0) yield { id, data: data.join("\n") };
      }
    }
  } catch {
    return; // the connection went away (an instance was killed): the caller resumes
  } finally {
    reader.releaseLock();
  }
}

/** A JSON-RPC message as the tests read it. */
export type Message = { readonly id?: string | number; readonly method?: string; readonly params?: Record<string, unknown>; readonly result?: Record<string, unknown>; readonly error?: { code: number; message: string } };

/** A raw Streamable HTTP client of one 2025-11-25 session through the balancer. */
export interface RawSession {
  sessionId: string | undefined;
  post(message: unknown): Promise<Response>;
  get(lastEventId?: string): Promise<Response>;
  /** POSTs a request and collects every message of its answer (JSON or a whole SSE stream). */
  call(id: number, method: string, params?: unknown): Promise<{ instance: string; messages: Message[] }>;
  initialize(capabilities?: Record<string, unknown>): Promise<string>;
}

/** Creates the client (call `initialize` first). */
export function rawSession(url: string, version = "2025-11-25"): RawSession {
  const headers = (): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": version,
    ...(session.sessionId === undefined ? {} : { "mcp-session-id": session.sessionId }),
  });
  const session: RawSession = {
    sessionId: undefined,
    post: (message) => fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(message) }),
    get: (lastEventId) => fetch(url, { method: "GET", headers: { ...headers(), accept: "text/event-stream", ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) } }),
    async call(id, method, params) {
      const response = await session.post({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
      const instance = response.headers.get("x-instance") ?? "?";
      if (response.status !== 200) throw new Error(`${method} answered ${response.status} by ${instance}: ${await response.text()}`);
      if ((response.headers.get("content-type") ?? "").includes("application/json")) return { instance, messages: [(await response.json()) as Message] };
      const messages: Message[] = [];
      for await (const event of readSse(response)) if (event.data !== "") messages.push(JSON.parse(event.data) as Message);
      return { instance, messages };
    },
    async initialize(capabilities = {}) {
      const response = await session.post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities, clientInfo: { name: "cluster-test", version: "1" } } });
      if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
      session.sessionId = response.headers.get("mcp-session-id") ?? undefined;
      await response.text();
      const initialized = await session.post({ jsonrpc: "2.0", method: "notifications/initialized" });
      await initialized.text();
      return response.headers.get("x-instance") ?? "?";
    },
  };
  return session;
}

/** The text of a tools/call result message. */
export function resultText(message: Message | undefined): string {
  const content = (message?.result as { content?: { text?: string }[] } | undefined)?.content;
  if (content?.[0]?.text === undefined) throw new Error(`not a tool result: ${JSON.stringify(message)}`);
  return content[0].text;
}

/**
 * Reads the messages of a stream until `done` says enough, resuming with `Last-Event-ID` (on
 * whichever instance the balancer picks) each time a connection ends; `onConnection` sees each
 * connection's instance. Gives up after `maxConnections`.
 */
export async function readResuming(
  session: RawSession,
  first: Response,
  done: (messages: readonly Message[]) => boolean,
  options: { maxConnections?: number; onConnection?: (instance: string, index: number) => void | Promise<void>; onEvent?: (instance: string, index: number, id: string | undefined) => void | Promise<void> } = {},
): Promise<Message[]> {
  const messages: Message[] = [];
  let lastId: string | undefined;
  let response = first;
  for (let connection = 0; connection < (options.maxConnections ?? 50); connection += 1) {
    const instance = response.headers.get("x-instance") ?? "?";
    await options.onConnection?.(instance, connection);
    if (response.status === 200) {
      for await (const event of readSse(response)) {
        lastId = event.id ?? lastId;
        if (event.data === "") continue;
        messages.push(JSON.parse(event.data) as Message);
        if (done(messages)) {
          await response.body?.cancel().catch(() => undefined);
          return messages;
        }
        await options.onEvent?.(instance, connection, event.id);
      }
    } else {
      await response.text();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    response = await session.get(lastId);
  }
  throw new Error(`the stream did not complete within ${options.maxConnections ?? 50} connections; got ${JSON.stringify(messages).slice(0, 500)}`);
}
