/**
 * Interop: @proto/mcp-client in `protocol: "auto"` against the official SDK v2 server
 * (`@modelcontextprotocol/server` 2.4.0) on both of its wires: `serveStdio` in a child process,
 * and `createMcpHandler` over HTTP (behind a node:http bridge that aborts the request when its
 * connection closes). The probe reaches 2026-07-28, and the user code of the 2025 servers works
 * unchanged: the full tool list, tools with progress and cancel, multi round-trip elicitation,
 * sampling and roots, ping, lists cached by their `ttlMs` until the list-changed event drops them.
 * `protocol: "2025-11-25"` gets the SDK's legacy serving instead.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMcpHandler } from "@modelcontextprotocol/server";
import type { RequestError, Transport } from "@proto/jsonrpc";
import { createClient, type Client, type ClientOptions } from "@proto/mcp-client";
import { createHttpClientTransport } from "@proto/transport-http";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { REPO_ROOT } from "../support/e2e-transports";
import { eventually, textOf } from "../support/wait";
import { hooks, sdkV2Scenario } from "./fixtures/sdk-v2-scenario";

const fixture = fileURLToPath(new URL("./fixtures/sdk-v2-stdio.ts", import.meta.url));

async function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", origin), { method: req.method ?? "GET", headers, signal, ...(body === undefined ? {} : { body }) });
}

/** `createMcpHandler` of the scenario on 127.0.0.1; `grow` publishes the list change through the handler. */
async function serveHttp(): Promise<{ url: string; http: HttpServer }> {
  const handler = createMcpHandler(sdkV2Scenario);
  hooks.onGrow = () => handler.notify.toolsChanged();
  const http = createServer((req, res) => {
    const aborter = new AbortController();
    res.once("close", () => aborter.abort());
    void toRequest(req, `http://${req.headers.host ?? "127.0.0.1"}`, aborter.signal).then(async (request) => {
      const response = await handler.fetch(request);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      res.writeHead(response.status, headers);
      if (response.body === null) return void res.end();
      Readable.fromWeb(response.body as never).pipe(res);
    }).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, http };
}

let http: { url: string; http: HttpServer } | undefined;
beforeAll(async () => {
  http = await serveHttp();
});
afterAll(async () => {
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.http.close(() => resolve())));
});

const WIRES: readonly (readonly [string, () => Transport])[] = [
  ["serveStdio", () => createStdioClientTransport({ command: process.execPath, args: ["--import", "tsx", fixture], cwd: REPO_ROOT, env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` } })],
  ["createMcpHandler over HTTP", () => createHttpClientTransport(http?.url ?? "")],
];

describe.each(WIRES)("our client against the official SDK v2 server, %s", (_name, transport) => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  function client(options: Partial<ClientOptions> = {}): Client {
    const c = createClient({ info: { name: "proto-host", version: "1" }, transport, connectTimeoutMs: 60_000, reconnect: { retries: 0 }, ...options });
    clients.push(c);
    return c;
  }

  it("auto reaches 2026-07-28: tools with progress and cancel, MRTR elicitation, sampling and roots, the same calls as on 2025", async () => {
    const c = client({
      elicitation: { form: () => ({ action: "accept", content: { ok: true } }) },
      sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "m" }) },
      roots: [{ uri: "file:///work" }],
    });
    expect((await c.connect()).protocolVersion).toBe("2026-07-28");
    // `grown-<n>` tools are added by the list-change test; every other tool of the scenario is listed.
    expect((await c.listAllTools()).map((t) => t.name).filter((name) => !name.startsWith("grown-")).sort()).toEqual(["cancelled", "confirm", "count", "echo", "grow", "think", "wait", "where"]);
    expect((await c.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
    const seen: number[] = [];
    expect(textOf(await c.callTool("count", { n: 3 }, { onProgress: (p) => seen.push(p.progress) }))).toBe("counted 3");
    expect(seen).toEqual([1, 2, 3]);
    expect((await c.callTool("confirm", { env: "prod" })).content).toEqual([{ type: "text", text: "deployed to prod: true" }]);
    expect((await c.callTool("think", {})).content).toEqual([{ type: "text", text: "model said 4" }]);
    expect(textOf(await c.callTool("where", {}))).toBe("file:///work");
    const aborter = new AbortController();
    // The tool's first progress says it runs: the cancel reaches a running handler.
    const waiting = c.callTool("wait", {}, { signal: aborter.signal, onProgress: () => aborter.abort() }).catch((e: unknown) => e);
    expect(((await waiting) as RequestError).code).toBe("ABORTED");
    await eventually(async () => textOf(await c.callTool("cancelled", {})) === "1", "the server's handler to see the cancellation");
    await c.ping();
  }, 90_000);

  it("the tool list is cached for its ttlMs; a list change reaches toolsChanged over the listen stream and drops it", async () => {
    let lists = 0;
    const c = client({ observer: { request: (e) => void (e.method === "tools/list" && lists++) } });
    expect((await c.connect()).protocolVersion).toBe("2026-07-28");
    expect((await c.listAllTools()).map((t) => t.name)).toContain("grow");
    await c.listAllTools();
    expect(lists).toBe(1);
    const changed = new Promise<void>((resolve) => c.on("toolsChanged", () => resolve()));
    await c.callTool("grow", {});
    await changed;
    expect((await c.listAllTools()).map((t) => t.name)).toContain("grown-1");
    expect(lists).toBe(2);
  }, 90_000);

  it('protocol: "2025-11-25" gets the SDK\'s legacy serving with the same calls', async () => {
    const c = client({ protocol: "2025-11-25" });
    expect((await c.connect()).protocolVersion).toBe("2025-11-25");
    expect((await c.callTool("echo", { text: "old" })).content).toEqual([{ type: "text", text: "old" }]);
  }, 90_000);
});
