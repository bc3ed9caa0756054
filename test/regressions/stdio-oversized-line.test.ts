/**
 * A stdio line over the limit used to be dropped and its request never answered: the line cap
 * and the message cap were both 4 MiB, so the codec's "too large" answer never ran. Now the
 * server answers -32600 with the id read from the line's start, and a client whose response is
 * too large fails that call at once (`RequestError` `OVERSIZED`) instead of after its 60 s
 * timeout. `limits.maxMessageBytes` raises the line cap with it.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { rawStdio } from "../support/raw-stdio";
import type { DecodeLimits } from "@proto/jsonrpc";

const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/big-result-server.ts", import.meta.url));
const MiB = 1024 * 1024;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function serverOnPipes(limits?: DecodeLimits) {
  const server = createServer({ name: "s", version: "1" });
  server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => String(JSON.stringify(args).length));
  return rawStdio(server, { version: "2025-11-25", ...(limits === undefined ? {} : { limits }) });
}

const bigCall = (id: number | string, bytes: number) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${"a".repeat(bytes)}"}}}`;

describe("stdio server: a line over the limit", () => {
  it("is answered -32600 with its id, and the session goes on", async () => {
    const s = await serverOnPipes();
    for (const id of [77, "big-one"]) {
      const answer = await s.ask(bigCall(id, 5 * MiB));
      expect(answer).toMatchObject({ id, error: { code: -32600, message: expect.stringContaining(`exceeds maxMessageBytes (${4 * MiB} bytes)`) } });
    }
    expect(await s.ask(bigCall(3, 10))).toMatchObject({ id: 3, result: { content: [{ text: expect.any(String) }] } });
    await s.close();
  });

  it("is answered with id null when the id is not in the line's first 64 KiB", async () => {
    const s = await serverOnPipes();
    const late = `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"text":"${"a".repeat(5 * MiB)}"}},"id":9}`;
    expect(await s.ask(late)).toMatchObject({ id: null, error: { code: -32600 } });
    await s.close();
  });

  it("limits.maxMessageBytes raises the line cap with it", async () => {
    const s = await serverOnPipes({ maxMessageBytes: 6 * MiB });
    expect(await s.ask(bigCall(5, 5 * MiB))).toMatchObject({ id: 5, result: {} });
    expect(await s.ask(bigCall(6, 7 * MiB))).toMatchObject({ id: 6, error: { code: -32600, message: expect.stringContaining(`${6 * MiB} bytes`) } });
    await s.close();
  });
});

describe("stdio client: a response over the limit", { timeout: 60_000 }, () => {
  function make(limits?: DecodeLimits): Client {
    const client = createClient({
      info: { name: "host", version: "1" },
      connectTimeoutMs: 30_000,
      transport: () =>
        createStdioClientTransport({
          command: process.execPath,
          args: ["--import", "tsx", fixture],
          cwd: root,
          env: { TSX_TSCONFIG_PATH: `${root}tsconfig.json` },
          ...(limits === undefined ? {} : { limits }),
        }),
    });
    clients.push(client);
    return client;
  }

  it("fails the pending call at once with OVERSIZED, and the connection goes on", async () => {
    const client = make();
    await client.connect();
    const failure = await client.callTool("big", { bytes: 5 * MiB }).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect(failure).toMatchObject({ code: "OVERSIZED", method: "tools/call", message: expect.stringContaining("raise maxMessageBytes") });
    expect((await client.callTool("small", {})).content).toEqual([{ type: "text", text: "small" }]);
  });

  it("reads it when limits.maxMessageBytes is raised", async () => {
    const client = make({ maxMessageBytes: 8 * MiB });
    await client.connect();
    const result = await client.callTool("big", { bytes: 5 * MiB });
    expect((result.content[0] as { text: string }).text).toHaveLength(5 * MiB);
  });
});
