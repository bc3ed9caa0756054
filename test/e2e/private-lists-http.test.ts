/**
 * `cacheScope: "private"` lists over Streamable HTTP (2026-07-28 server/utilities/caching):
 * @proto/mcp-client keeps a private tool list for the bearer token it was fetched with, so a
 * client whose auth provider switches user fetches the list again under the new token, while
 * a public list is reused whoever asks.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createHttpClientTransport, type HttpAuth } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** Starts a 2026-07-28 server whose tool list has `cacheScope` for a minute; returns a client and the tokens of each tools/list POST. */
async function start(cacheScope: "public" | "private"): Promise<{ listAll(): Promise<unknown>; switchTo(token: string): void; listedWith: (string | null)[] }> {
  const server = createServer({ name: "lists", version: "1.0.0" }, { stateless: { cache: { tools: { ttlMs: 60_000, cacheScope } } } });
  server.tool({ name: "t", inputSchema: { type: "object" } }, () => "ok");
  const handler = createNodeHttpHandler({ connect: (t, c) => server.connect(t, c.sessionId === undefined ? {} : { sessionId: c.sessionId }) });
  const listener = createNodeHttpServer((req, res) => handler(req, res));
  const port = await listenLoopback(listener);
  cleanup.push(async () => (await closeHttp(listener), await server.close()));
  let token = "token-of-ada";
  const auth: HttpAuth = { token: async () => token, unauthorized: async () => false };
  const listedWith: (string | null)[] = [];
  const fetchSpy = (input: URL, init: RequestInit): Promise<Response> => {
    if (typeof init.body === "string" && init.body.includes('"tools/list"')) listedWith.push(new Headers(init.headers).get("authorization"));
    return fetch(input, init);
  };
  const client = createClient({ info: { name: "host", version: "1" } });
  cleanup.push(() => client.close());
  const details = await client.connect(createHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { auth, fetch: fetchSpy }));
  expect(details.protocolVersion).toBe("2026-07-28");
  return { listAll: () => client.listAllTools(), switchTo: (next) => void (token = next), listedWith };
}

describe("private lists over Streamable HTTP follow the bearer token", () => {
  it("fetches a private list again after the auth provider switched user, and reuses it per user", async () => {
    const run = await start("private");
    await run.listAll();
    await run.listAll();
    expect(run.listedWith).toEqual(["Bearer token-of-ada"]);
    run.switchTo("token-of-bob");
    await run.listAll();
    await run.listAll();
    expect(run.listedWith).toEqual(["Bearer token-of-ada", "Bearer token-of-bob"]);
  });

  it("reuses a public list across the switch", async () => {
    const run = await start("public");
    await run.listAll();
    run.switchTo("token-of-bob");
    await run.listAll();
    expect(run.listedWith).toEqual(["Bearer token-of-ada"]);
  });
});
