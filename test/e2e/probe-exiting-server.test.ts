/**
 * The era probe against a real stdio process that exits on an unknown request before
 * `initialize` (CHECKLIST §5 "Client era probe": some servers exit on pre-`initialize`
 * requests). `auto` probes in the process it will use; the server dies, the verdict is
 * remembered as `initialize`, and the `transport` factory's retry starts a second process that
 * is initialized at once, never probed. Without a factory the connect fails, saying what to do.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, createEraMemory, isMcpClientError, type Client } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { textOf } from "../support/wait";

const fixture = fileURLToPath(new URL("./fixtures/exits-on-unknown.mjs", import.meta.url));
const clients: Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function starts(): { file: string; count: () => number } {
  const dir = mkdtempSync(join(tmpdir(), "probe-exit-"));
  dirs.push(dir);
  const file = join(dir, "starts.log");
  return { file, count: () => readFileSync(file, "utf8").split("\n").filter(Boolean).length };
}

describe("probing a stdio server that exits on server/discover", { timeout: 60_000 }, () => {
  it("with a transport factory: the retry starts a fresh process and initializes it; the verdict is kept for the key", async () => {
    const log = starts();
    const eraMemory = createEraMemory();
    const client = createClient({
      info: { name: "host", version: "1" },
      serverKey: `node ${fixture}`,
      eraMemory,
      reconnect: { retries: 1, initialDelayMs: 1 },
      transport: () => createStdioClientTransport({ command: process.execPath, args: [fixture, log.file] }),
    });
    clients.push(client);
    expect((await client.connect()).protocolVersion).toBe("2025-11-25");
    expect(log.count()).toBe(2);
    expect(textOf(await client.callTool("echo", { text: "hi" }))).toBe("hi");
    expect(eraMemory.get(`node ${fixture}`)).toEqual({ era: "legacy" });
    // Another client with the same key goes straight to initialize: one process, no probe.
    const again = createClient({ info: { name: "host", version: "1" }, serverKey: `node ${fixture}`, eraMemory, reconnect: { retries: 0 } });
    clients.push(again);
    await again.connect(createStdioClientTransport({ command: process.execPath, args: [fixture, log.file] }));
    expect(log.count()).toBe(3);
  });

  it("without a factory: the connect fails with CONNECT_FAILED, naming the way out", async () => {
    const log = starts();
    const client = createClient({ info: { name: "host", version: "1" }, reconnect: { retries: 0 } });
    clients.push(client);
    const error = await client.connect(createStdioClientTransport({ command: process.execPath, args: [fixture, log.file] })).catch((e: unknown) => e);
    expect(isMcpClientError(error, "CONNECT_FAILED")).toBe(true);
    expect((error as Error).message).toMatch(/closed the connection when probed with server\/discover.*protocol: "2025-11-25"/s);
    expect(log.count()).toBe(1);
  });
});
