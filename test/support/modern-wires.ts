/**
 * The wires of the 2026-07-28 end-to-end table: one request in, the messages of its answer out
 * (related notifications first, the response last), over memory, Streamable HTTP and a stdio
 * child process, against the modern scenario server.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { JsonRpcPayload } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback, REPO_ROOT } from "./e2e-transports";
import { post, request } from "./modern-http";
import { createModernScenario } from "./modern-scenario";

type Message = Record<string, unknown>;

/** One started wire. */
export interface ModernWire {
  /** Sends a request; resolves with every message up to and including its response. */
  call(id: number | string, method: string, params: Record<string, unknown>): Promise<{ readonly messages: readonly Message[]; readonly response: Message }>;
  /** Sends a notification (stdio and memory). */
  notify?(method: string, params: Record<string, unknown>): Promise<void>;
  /** Every message received outside calls (stdio and memory: listen streams). */
  readonly received?: Message[];
  stop(): Promise<void>;
}

function lineWire(write: (line: string) => void, onLine: (sink: (m: Message) => void) => void, stop: () => Promise<void>): ModernWire {
  const received: Message[] = [];
  const waiting = new Map<string, { messages: Message[]; done: (r: { messages: Message[]; response: Message }) => void }>();
  onLine((m) => {
    received.push(m);
    for (const w of waiting.values()) w.messages.push(m);
    if ("id" in m && !("method" in m)) {
      const w = waiting.get(String(m.id));
      if (w) (waiting.delete(String(m.id)), w.done({ messages: w.messages, response: m }));
    }
  });
  return {
    received,
    call: (id, method, params) =>
      new Promise((done) => {
        waiting.set(String(id), { messages: [], done });
        write(JSON.stringify(request(id, method, params)));
      }),
    notify: async (method, params) => write(JSON.stringify({ jsonrpc: "2.0", method, params })),
    stop,
  };
}

async function memoryWire(): Promise<ModernWire> {
  const server = createModernScenario();
  const [client, side] = createMemoryTransportPair();
  let sink: (m: Message) => void = () => {};
  await client.start({ payload: (p: JsonRpcPayload) => sink(p as unknown as Message), error() {}, closed() {} });
  await server.connect(side);
  return lineWire((line) => void client.send(JSON.parse(line) as JsonRpcPayload), (s) => (sink = s), async () => (await client.close(), await server.close()));
}

async function stdioWire(): Promise<ModernWire> {
  const fixture = fileURLToPath(new URL("../e2e/fixtures/modern-stdio.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", fixture], { cwd: REPO_ROOT, env: { ...process.env, TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` }, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return lineWire(
    (line) => child.stdin.write(`${line}\n`),
    (sink) => lines.on("line", (line) => sink(JSON.parse(line) as Message)),
    async () => (child.stdin.end(), await exited),
  );
}

async function httpWire(): Promise<ModernWire> {
  const server = createModernScenario();
  const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => server.connect(t) }));
  const url = `http://127.0.0.1:${await listenLoopback(listener)}/mcp`;
  return {
    async call(id, method, params) {
      const answer = await post(url, request(id, method, params));
      return { messages: answer.messages, response: answer.last ?? {} };
    },
    stop: async () => (await closeHttp(listener), await server.close()),
  };
}

/** The table: name and starter. */
export const MODERN_WIRES: readonly (readonly [string, () => Promise<ModernWire>])[] = [
  ["memory", memoryWire],
  ["Streamable HTTP", httpWire],
  ["stdio", stdioWire],
];
