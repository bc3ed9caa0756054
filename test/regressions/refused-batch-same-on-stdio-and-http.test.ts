/**
 * A JSON-RPC batch under a version without batches (every revision but 2025-03-26) is refused
 * the same way over stdio and over Streamable HTTP: one array holding -32600 with its id for
 * every request of the batch, `ping` and `server/discover` included (they used to be answered
 * inside the refused batch over stdio, while HTTP answered one -32000 with id null).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { rawStdio } from "../support/raw-stdio";

const init = (version: string) => ({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const BATCH = [
  { jsonrpc: "2.0", id: 1, method: "ping" },
  { jsonrpc: "2.0", id: 2, method: "server/discover" },
  { jsonrpc: "2.0", id: 3, method: "tools/list" },
  { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
];
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function makeServer() {
  const server = createServer({ name: "batches", version: "1.0.0" });
  server.tool({ name: "noop", inputSchema: { type: "object" } }, () => "ok");
  return server;
}

describe("a refused batch is answered alike over stdio and Streamable HTTP", () => {
  let url: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    const server = makeServer();
    const listener = createNodeHttpServer(createNodeHttpHandler({ responseMode: "json", connect: (t) => server.connect(t) }));
    url = `http://127.0.0.1:${await listenLoopback(listener)}/mcp`;
    stop = async () => (await closeHttp(listener), await server.close());
  });
  afterAll(() => stop());

  async function httpSession(version: string): Promise<(body: unknown) => Promise<{ status: number; body: unknown }>> {
    const opened = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify(init(version)) });
    const headers = { ...HEADERS, "mcp-session-id": opened.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": version };
    await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    return async (body) => {
      const answer = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
      return { status: answer.status, body: await answer.json() };
    };
  }

  it.each(["2025-11-25", "2025-06-18", "2024-11-05"])("under %s: -32600 with its id for each request, ping and server/discover included", async (version) => {
    const expected = [1, 2, 3].map((id) => ({
      jsonrpc: "2.0",
      id,
      error: { code: -32600, message: expect.stringContaining(`JSON-RPC batches are not allowed under protocol version ${version}`) as unknown },
    }));
    const stdio = await rawStdio(makeServer(), { version });
    const overStdio = await stdio.ask(BATCH);
    await stdio.close();
    const overHttp = await (await httpSession(version))(BATCH);
    expect(overStdio).toEqual(expected);
    expect(overHttp).toEqual({ status: 400, body: expected });
    expect(overHttp.body).toEqual(overStdio);
  });

  it("under 2025-03-26 the same batch is served on both", async () => {
    const stdio = await rawStdio(makeServer(), { version: "2025-03-26" });
    const overStdio = (await stdio.ask(BATCH)) as { id: number; result?: unknown }[];
    await stdio.close();
    const overHttp = await (await httpSession("2025-03-26"))(BATCH);
    expect(overHttp.status).toBe(200);
    for (const answers of [overStdio, overHttp.body as typeof overStdio]) {
      expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
      expect(answers.every((a) => a.result !== undefined)).toBe(true);
    }
  });
});
