/**
 * Interop: @proto/mcp-client in `protocol: "auto"` against the official SDK v2 server
 * (`@modelcontextprotocol/server` 2.4.0) behind its `serveStdio`, in a child process: the probe
 * reaches the 2026-07-28 wire on stdio, and the user code of the 2025 servers works unchanged:
 * tools with progress and cancel, multi round-trip elicitation, sampling and roots, and the
 * lists cached by their `ttlMs` until the list-changed event drops them. `protocol: "2025-11-25"` gets the SDK's legacy serving instead.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createClient, type Client, type ClientOptions } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { REPO_ROOT } from "../support/e2e-transports";
import { eventually, textOf } from "../support/wait";

const fixture = fileURLToPath(new URL("./fixtures/sdk-v2-stdio.ts", import.meta.url));
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(options: Partial<ClientOptions> = {}): Client {
  const c = createClient({
    info: { name: "proto-host", version: "1" },
    transport: () => createStdioClientTransport({ command: process.execPath, args: ["--import", "tsx", fixture], cwd: REPO_ROOT, env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` } }),
    connectTimeoutMs: 60_000,
    reconnect: { retries: 0 },
    ...options,
  });
  clients.push(c);
  return c;
}

describe("our client against the official SDK v2 server over serveStdio", { timeout: 90_000 }, () => {
  it("auto reaches 2026-07-28: tools with progress and cancel, MRTR elicitation, sampling and roots, the same calls as on 2025", async () => {
    const c = client({
      elicitation: { form: () => ({ action: "accept", content: { ok: true } }) },
      sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "m" }) },
      roots: [{ uri: "file:///work" }],
    });
    expect((await c.connect()).protocolVersion).toBe("2026-07-28");
    expect(textOf(await c.callTool("echo", { text: "hi" }))).toBe("hi");
    const seen: number[] = [];
    expect(textOf(await c.callTool("count", { n: 3 }, { onProgress: (p) => seen.push(p.progress) }))).toBe("counted 3");
    expect(seen).toEqual([1, 2, 3]);
    expect(textOf(await c.callTool("confirm", { env: "prod" }))).toBe("deployed to prod: true");
    expect(textOf(await c.callTool("think", {}))).toBe("model said 4");
    expect(textOf(await c.callTool("where", {}))).toBe("file:///work");
    const aborter = new AbortController();
    // The tool's first progress says it runs: the cancel reaches a running handler.
    const waiting = c.callTool("wait", {}, { signal: aborter.signal, onProgress: () => aborter.abort() }).catch((e: unknown) => e);
    expect(((await waiting) as RequestError).code).toBe("ABORTED");
    await eventually(async () => textOf(await c.callTool("cancelled", {})) === "1", "the server's handler to see the cancellation");
  });

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
  });

  it('protocol: "2025-11-25" gets the SDK\'s legacy serving with the same calls', async () => {
    const c = client({ protocol: "2025-11-25" });
    expect((await c.connect()).protocolVersion).toBe("2025-11-25");
    expect(textOf(await c.callTool("echo", { text: "old" }))).toBe("old");
  });
});
