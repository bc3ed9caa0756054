import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, type RequestHandler } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

/**
 * The `subscriptions/listen` stream of a 2026-07-28 session, seen from the server: what the client
 * asks for, how it compares the acknowledgement, reopens a dropped stream, replaces it when the
 * subscriptions change, and ends it on close; the user's `subscribe` / `on(...)` code is the 2025 one.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Params = { readonly [key: string]: unknown };
const ACK = "notifications/subscriptions/acknowledged";
const discover: RequestHandler = () => ({
  resultType: "complete",
  supportedVersions: ["2026-07-28"],
  capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
  ttlMs: 0,
  cacheScope: "public",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern", version: "2" } },
});

interface Listening {
  readonly client: Client;
  readonly server: ScriptedServer;
  /** The `notifications` filter of every listen request, in order. */
  readonly filters: Params[];
  readonly warnings: string[];
}

/**
 * A modern server whose listen streams stay open (or end as `end(n)` says for the n-th, from 1)
 * and acknowledge what `honour` keeps of the filter.
 */
async function listening(honour: (filter: Params) => Params, end: (n: number) => "open" | "error" | "done" = () => "open"): Promise<Listening> {
  const filters: Params[] = [];
  const warnings: string[] = [];
  let server: ScriptedServer | undefined;
  server = await createScriptedServer({
    handlers: {
      "server/discover": discover,
      "subscriptions/listen": async (params) => {
        const filter = (params as Params).notifications as Params;
        filters.push(filter);
        await server?.peer.notify(ACK, { notifications: honour(filter) });
        const how = end(filters.length);
        if (how === "error") throw new JsonRpcError(-32603, "listen stream lost");
        if (how === "done") return { resultType: "complete" };
        return new Promise(() => {});
      },
    },
  });
  const client = createClient({ info: { name: "t", version: "1" }, logger: { warn: (message) => void warnings.push(String(message)), error() {} } });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server, filters, warnings };
}

const cancelled = (server: ScriptedServer): number => server.notifications.filter((n) => n.method === "notifications/cancelled").length;

describe("subscriptions/listen (2026-07-28)", () => {
  it("asks for the list changes the server declares, and logs what the acknowledgement did not honour", async () => {
    const { filters, warnings } = await listening(({ resourcesListChanged: _dropped, ...kept }) => kept);
    await vi.waitFor(() => expect(filters).toHaveLength(1));
    expect(filters[0]).toEqual({ toolsListChanged: true, resourcesListChanged: true });
    await vi.waitFor(() => expect(warnings.join("\n")).toMatch(/did not honour every subscription asked for: resourcesListChanged/));
  });

  it("a full acknowledgement logs nothing", async () => {
    const { client, filters, warnings } = await listening((filter) => filter);
    await vi.waitFor(() => expect(filters).toHaveLength(1));
    await client.subscribe("file:///a.txt");
    expect(warnings).toEqual([]);
  });

  it("subscribe and unsubscribe replace the stream (the old one cancelled); its events reach the 2025 listeners", async () => {
    const { client, server, filters } = await listening((filter) => filter);
    await vi.waitFor(() => expect(filters).toHaveLength(1));
    await client.subscribe("file:///a.txt");
    expect(filters[1]).toEqual({ toolsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["file:///a.txt"] });
    await vi.waitFor(() => expect(cancelled(server)).toBe(1));
    const updated = new Promise((resolve) => client.on("resourceUpdated", resolve));
    const toolsChanged = new Promise<void>((resolve) => client.on("toolsChanged", () => resolve()));
    await server.peer.notify("notifications/resources/updated", { uri: "file:///a.txt" });
    await server.peer.notify("notifications/tools/list_changed", {});
    expect(await updated).toMatchObject({ uri: "file:///a.txt" });
    await toolsChanged;
    await client.unsubscribe("file:///a.txt");
    expect(filters[2]).toEqual({ toolsListChanged: true, resourcesListChanged: true });
    await vi.waitFor(() => expect(cancelled(server)).toBe(2));
    expect(server.received.map((r) => r.method)).not.toContain("resources/subscribe");
  });

  for (const how of ["error", "done"] as const) {
    it(`a stream that ${how === "error" ? "fails" : "the server ends"} is opened again with the same filter`, async () => {
      const { filters, warnings } = await listening((filter) => filter, (n) => (n === 1 ? how : "open"));
      await vi.waitFor(() => expect(filters).toHaveLength(2), { timeout: 5_000 });
      expect(filters[1]).toEqual(filters[0]);
      if (how === "error") expect(warnings.join("\n")).toMatch(/subscriptions\/listen ended \(listen stream lost\); listening again/);
    });
  }
});

describe("acknowledgements of replaced streams (stdio: they may interleave)", () => {
  it("a late acknowledgement of the replaced stream is not taken for the new one's: subscribe waits for its own", async () => {
    const streams: { id: unknown; filter: Params }[] = [];
    const warnings: string[] = [];
    const server = await createScriptedServer({
      handlers: {
        "server/discover": discover,
        "subscriptions/listen": (params, ctx) => (streams.push({ id: ctx.id, filter: (params as Params).notifications as Params }), new Promise(() => {})),
      },
    });
    const client = createClient({ info: { name: "t", version: "1" }, logger: { warn: (message) => void warnings.push(String(message)), error() {} } });
    clients.push(client);
    await client.connect(server.transport);
    await vi.waitFor(() => expect(streams).toHaveLength(1));
    let subscribed = false;
    const subscribing = client.subscribe("file:///a.txt").then(() => (subscribed = true));
    await vi.waitFor(() => expect(streams).toHaveLength(2));
    const ack = (n: number) => server.peer.notify(ACK, { _meta: { "io.modelcontextprotocol/subscriptionId": streams[n]?.id }, notifications: streams[n]?.filter });
    await ack(0);
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(subscribed).toBe(false);
    await ack(1);
    await subscribing;
    expect(warnings).toEqual([]);
  });
});

describe("the client's maxTotalTimeoutMs", () => {
  it("never cuts the listen stream (it has no end of its own)", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": discover, "subscriptions/listen": () => new Promise(() => {}) } });
    const client = createClient({ info: { name: "t", version: "1" }, maxTotalTimeoutMs: 30 });
    clients.push(client);
    await client.connect(server.transport);
    await vi.waitFor(() => expect(server.received.filter((r) => r.method === "subscriptions/listen")).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(cancelled(server)).toBe(0);
  });
});
