import { afterEach, describe, expect, it } from "vitest";
import type { Transport } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { discover } from "./fixtures/modern-discover";
import { until } from "./fixtures/until";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

/**
 * The credentials of a `cacheScope: "private"` list bind every use of it: output validation
 * reads the outputSchema of the current user's list, and a list fetched while the user
 * switched is handed to its callers but not kept for the next user.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** Ada's `report` returns `{ total: number }`, Bob's `{ total: string }`: each user's schema is the other's violation. */
const schemaOf = (user: string) => ({ type: "object", properties: { total: { type: user === "ada" ? "number" : "string" } }, required: ["total"] });
const totalOf = (user: string) => (user === "ada" ? 3 : "three");

interface Rig {
  client: Client;
  server: ScriptedServer;
  /** Switches the user the server answers as and the credentials the transport reports. */
  as(user: string): void;
  /** Holds the next `tools/list` answer until the returned function is called. */
  holdNextList(): () => void;
}

async function setup(): Promise<Rig> {
  let user = "ada";
  let held: Promise<void> | undefined;
  const server = await createScriptedServer({
    handlers: {
      "server/discover": discover,
      "tools/list": async () => {
        const asked = user;
        const wait = held;
        held = undefined;
        if (wait !== undefined) await wait;
        return { resultType: "complete", ttlMs: 60_000, cacheScope: "private", tools: [{ name: "report", inputSchema: { type: "object" }, outputSchema: schemaOf(asked) }] };
      },
      "tools/call": () => ({ resultType: "complete", content: [], structuredContent: { total: totalOf(user) } }),
    },
  });
  const { transport } = server;
  const keyed: Transport = { start: (s) => transport.start(s), send: (p) => transport.send(p), close: (r) => transport.close(r), credentialId: async () => `id-${user}` };
  const client = createClient({ info: { name: "t", version: "1" } });
  clients.push(client);
  await client.connect(keyed);
  return {
    client,
    server,
    as: (next) => void (user = next),
    holdNextList() {
      let release!: () => void;
      held = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

const lists = (server: ScriptedServer): number => server.received.filter((r) => r.method === "tools/list").length;

/** Resolves once the server has received `n` list requests. */
const received = (server: ScriptedServer, n: number): Promise<void> => until(() => lists(server) >= n, `${n} tools/list requests`);

describe("private lists and the credentials that use them", () => {
  it("validates a call against the outputSchema of the current user's list", async () => {
    const { client, server, as } = await setup();
    expect((await client.listAllTools())[0]?.outputSchema).toEqual(schemaOf("ada"));
    expect((await client.callTool("report")).structuredContent).toEqual({ total: 3 });
    as("bob");
    // Ada's list says `total` is a number: checked against it, Bob's valid result would be refused.
    const bobs = await client.callTool("report");
    expect(bobs.isError).not.toBe(true);
    expect(bobs.structuredContent).toEqual({ total: "three" });
    expect(lists(server)).toBe(2);
    expect((await client.listAllTools())[0]?.outputSchema).toEqual(schemaOf("bob"));
    expect(lists(server)).toBe(2);
  });

  it("a list fetched while the user switched reaches its callers but is not kept for the next user", async () => {
    const { client, server, as, holdNextList } = await setup();
    await client.listAllTools();
    await client.listAllTools({ refresh: true });
    expect(lists(server)).toBe(2);
    // Ada's fetch is in flight when the credentials switch to Bob's.
    const release = holdNextList();
    const adas = client.listAllTools({ refresh: true });
    await received(server, 3);
    as("bob");
    release();
    expect((await adas)[0]?.outputSchema).toEqual(schemaOf("ada"));
    // Bob never gets Ada's list from the cache: the next call fetches his.
    expect((await client.listAllTools())[0]?.outputSchema).toEqual(schemaOf("bob"));
    expect(lists(server)).toBe(4);
    expect((await client.listAllTools())[0]?.outputSchema).toEqual(schemaOf("bob"));
    expect(lists(server)).toBe(4);
  });

  it("a caller with other credentials does not join a fetch running for the previous user", async () => {
    const { client, server, as, holdNextList } = await setup();
    await client.listAllTools();
    const release = holdNextList();
    const adas = client.listAllTools({ refresh: true });
    await received(server, 2);
    as("bob");
    const bobs = client.listAllTools();
    await received(server, 3);
    release();
    expect((await adas)[0]?.outputSchema).toEqual(schemaOf("ada"));
    expect((await bobs)[0]?.outputSchema).toEqual(schemaOf("bob"));
    expect(lists(server)).toBe(3);
  });
});
