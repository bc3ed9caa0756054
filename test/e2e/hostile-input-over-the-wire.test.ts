/**
 * Guards what hostile bytes do to a running server, over real sockets and pipes: each gets a
 * clear refusal (an HTTP status with a JSON-RPC error, or a JSON-RPC error line) and the server
 * keeps serving the session. Limits are the defaults of DESIGN.md section 4.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback, REPO_ROOT } from "../support/e2e-transports";
import { createScenarioServer } from "../support/scenario-server";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe("hostile input to our Streamable HTTP server", () => {
  let url: string;
  let session: Record<string, string>;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const { server } = createScenarioServer("hostile-http");
    const listener = createNodeHttpServer(createNodeHttpHandler({ responseMode: "json", connect: (t) => server.connect(t) }));
    url = `http://127.0.0.1:${await listenLoopback(listener)}/mcp`;
    stop = async () => (await closeHttp(listener), await server.close());
    const init = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(INIT) });
    expect(init.status).toBe(200);
    session = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
    await fetch(url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  });
  afterAll(() => stop());

  async function post(body: BodyInit, headers: Record<string, string> = session): Promise<{ status: number; body: string }> {
    const response = await fetch(url, { method: "POST", headers, body });
    return { status: response.status, body: await response.text() };
  }

  async function stillServes(): Promise<void> {
    const answer = await post(JSON.stringify({ jsonrpc: "2.0", id: 99, method: "tools/call", params: { name: "echo", arguments: { text: "alive" } } }));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: 99, result: { content: [{ text: "alive" }] } });
  }

  it("refuses a body over 4 MiB with 413, before parsing", async () => {
    const answer = await post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${"x".repeat(4 * 2 ** 20)}"}}}`);
    expect(answer.status).toBe(413);
    await stillServes();
  });

  it("refuses 100,000 levels of nesting with 400 and -32600, without a stack overflow", async () => {
    const answer = await post(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32600 } });
    await stillServes();
  });

  it("refuses invalid UTF-8 and invalid JSON with 400 and -32700", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"'), 0xff, 0xfe, ...new TextEncoder().encode('"}}')]);
    expect(JSON.parse((await post(bytes)).body)).toMatchObject({ error: { code: -32700 } });
    const broken = await post('{"jsonrpc":"2.0","id":5,');
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toMatchObject({ error: { code: -32700 } });
    await stillServes();
  });

  it("refuses a prototype-polluting message and leaves Object.prototype alone", async () => {
    const answer = await post('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"polluted":true}}}}');
    expect(answer.status).toBe(400);
    // a well-formed request whose params hold the key: invalid params, naming the key and its path
    expect(JSON.parse(answer.body)).toMatchObject({ id: 6, error: { code: -32602, message: expect.stringContaining('"__proto__" in params.arguments') } });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    await stillServes();
  });

  it("refuses a foreign Host (DNS rebinding) with 403", async () => {
    // fetch cannot forge Host; node:http can.
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { ...session, host: "attacker.example" } }, (res) => (res.resume(), resolve(res.statusCode)));
      req.once("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" }));
    });
    expect(status).toBe(403);
    await stillServes();
  });
});

describe("hostile lines to our stdio server process", { timeout: 90_000 }, () => {
  it("answers bad lines with JSON-RPC errors, answers an oversized line with its id, and keeps serving", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/scenario-stdio.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", fixture], { cwd: REPO_ROOT, env: { ...process.env, TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` }, stdio: ["pipe", "pipe", "inherit"] });
    const answers: { id?: unknown; error?: { code: number }; result?: unknown }[] = [];
    let waiting: (() => void) | undefined;
    createInterface({ input: child.stdout }).on("line", (line) => {
      answers.push(JSON.parse(line) as (typeof answers)[number]);
      waiting?.();
    });
    const until = (id: number) =>
      new Promise<void>((resolve) => {
        waiting = () => answers.some((a) => a.id === id) && resolve();
        waiting();
      });
    child.stdin.write(`${JSON.stringify(INIT)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
    child.stdin.write(`not json at all\n{"jsonrpc":"2.0","id":2,"method":"ping","params":${"[".repeat(50_000)}${"]".repeat(50_000)}}\n`);
    child.stdin.write(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${"x".repeat(5 * 2 ** 20)}"}}\n`); // over 4 MiB: dropped, answered
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "echo", arguments: { text: "alive" } } })}\n`);
    await until(4);
    child.stdin.end();
    expect(answers.find((a) => a.id === null && a.error?.code === -32700)).toBeDefined();
    expect(answers.find((a) => a.id === 2 || (a.id === null && a.error?.code === -32600))?.error?.code).toBe(-32600);
    expect(answers.find((a) => a.id === 3)?.error?.code).toBe(-32600);
    expect(answers.find((a) => a.id === 4)).toMatchObject({ result: { content: [{ text: "alive" }] } });
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
  });
});
