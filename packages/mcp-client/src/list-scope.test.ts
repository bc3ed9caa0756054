import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestHandler, Transport } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

/**
 * `cacheScope: "private"` lists (2026-07-28 server/utilities/caching) are kept for the
 * credentials in use: a client whose auth provider switches user never serves the previous
 * user's list. The scripted server answers as the current user; the transport says who that is.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Scope = "public" | "private" | undefined;
const discover: RequestHandler = () => ({
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: {}, resources: {} },
  ttlMs: 0,
  cacheScope: "public",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2" } },
});

async function setup(scope: Scope, credentialId: () => Promise<string | undefined>): Promise<{ client: Client; server: ScriptedServer; as(user: string): void }> {
  let user = "ada";
  const hints = { resultType: "complete", ttlMs: 60_000, ...(scope === undefined ? {} : { cacheScope: scope }) };
  const server = await createScriptedServer({
    handlers: {
      "server/discover": discover,
      "tools/list": () => ({ ...hints, tools: [{ name: `tool-of-${user}`, inputSchema: { type: "object" } }] }),
      "resources/list": () => ({ ...hints, resources: [{ uri: `file:///${user}`, name: user }] }),
    },
  });
  const { transport } = server;
  const keyed: Transport = { start: (s) => transport.start(s), send: (p) => transport.send(p), close: (r) => transport.close(r), credentialId };
  const client = createClient({ info: { name: "t", version: "1" } });
  clients.push(client);
  await client.connect(keyed);
  return { client, server, as: (next) => void (user = next) };
}

const lists = (server: ScriptedServer, method: string): number => server.received.filter((r) => r.method === method).length;
const toolNames = async (client: Client): Promise<string[]> => (await client.listAllTools()).map((t) => t.name);

describe("private lists keyed by the credentials in use", () => {
  it("a private list is served only to the credentials it was loaded with", async () => {
    let who = "id-ada";
    const { client, server, as } = await setup("private", async () => who);
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(lists(server, "tools/list")).toBe(1);
    // The auth provider switched user: Bob never gets Ada's list.
    who = "id-bob";
    as("bob");
    expect(await toolNames(client)).toEqual(["tool-of-bob"]);
    expect(await toolNames(client)).toEqual(["tool-of-bob"]);
    expect(lists(server, "tools/list")).toBe(2);
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["file:///bob"]);
    who = "id-ada";
    as("ada");
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["file:///ada"]);
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(lists(server, "tools/list")).toBe(3);
    expect(lists(server, "resources/list")).toBe(2);
  });

  it("a list that names no scope is private", async () => {
    let who = "id-ada";
    const { client, server, as } = await setup(undefined, async () => who);
    await toolNames(client);
    who = "id-bob";
    as("bob");
    expect(await toolNames(client)).toEqual(["tool-of-bob"]);
    expect(lists(server, "tools/list")).toBe(2);
  });

  it("a public list is shared across users and never asks for the credentials", async () => {
    const credentialId = vi.fn(async () => "id-ada");
    const { client, server, as } = await setup("public", credentialId);
    await toolNames(client);
    as("bob");
    credentialId.mockImplementation(async () => "id-bob");
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(lists(server, "tools/list")).toBe(1);
    expect(credentialId).not.toHaveBeenCalled();
  });

  it("a private list whose credentials cannot be had is not kept", async () => {
    const { client, server } = await setup("private", async () => {
      throw new Error("login needed");
    });
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(await toolNames(client)).toEqual(["tool-of-ada"]);
    expect(lists(server, "tools/list")).toBe(2);
  });

  it("without credentials (stdio, in-memory) a private list is cached for the client", async () => {
    const { client, server } = await setup("private", async () => undefined);
    await toolNames(client);
    await toolNames(client);
    expect(lists(server, "tools/list")).toBe(1);
  });
});
