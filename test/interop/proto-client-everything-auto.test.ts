/**
 * Interop: @proto/mcp-client left at its default (`protocol: "auto"`) against the official
 * reference server `@modelcontextprotocol/server-everything` (2025-only), a child process on
 * stdio: the `server/discover` probe is refused and the client falls back to `initialize` on the
 * same process; then the user code of the 2026-07-28 servers works unchanged: a tool with
 * progress, a cancelled one, sampling and roots served during a call, the tool list cached.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createClient, type Client } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { textOf } from "../support/wait";

const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("our client in auto mode against the official server-everything (stdio, 2025-only)", () => {
  it("falls back to initialize after the probe, and the same calls work", async () => {
    const warnings: string[] = [];
    let lists = 0;
    const client = createClient({
      info: { name: "auto-host", version: "1" },
      logger: { warn: (message) => void warnings.push(String(message)), error() {} },
      observer: { request: (e) => void (e.method === "tools/list" && lists++) },
      roots: [{ uri: "file:///work" }],
      sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "four" }, model: "m" }) },
      connectTimeoutMs: 60_000,
    });
    clients.push(client);
    const details = await client.connect(createStdioClientTransport({ command: process.execPath, args: [everythingBin, "stdio"] }));
    expect(details.protocolVersion).toBe("2025-11-25");
    expect(warnings.join("\n")).toMatch(/server\/discover failed .*falling back to initialize/);
    expect(textOf(await client.callTool("echo", { message: "hi" }))).toContain("hi");

    const seen: number[] = [];
    await client.callTool("trigger-long-running-operation", { duration: 0.2, steps: 2 }, { onProgress: (p) => seen.push(p.progress) });
    expect(seen).toEqual([1, 2]);
    const aborter = new AbortController();
    const long = client.callTool("trigger-long-running-operation", { duration: 30, steps: 30 }, { signal: aborter.signal, onProgress: () => aborter.abort() }).catch((e: unknown) => e);
    expect(((await long) as RequestError).code).toBe("ABORTED");

    expect(JSON.stringify((await client.callTool("trigger-sampling-request", { prompt: "2+2?" })).content)).toContain("four");
    expect(JSON.stringify((await client.callTool("get-roots-list", {})).content)).toContain("file:///work");

    await client.listAllTools();
    const cached = lists;
    expect((await client.listAllTools()).map((t) => t.name)).toContain("echo");
    expect(lists).toBe(cached);
    await client.listAllTools({ refresh: true });
    expect(lists).toBe(cached + 1);
  }, 60_000);
});
