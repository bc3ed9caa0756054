
import { describe, expect, it } from "vitest";
import type { JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";

const errorOf = (r: JsonRpcResponse) => ("error" in r ? r.error : undefined);
import { connectRaw, initializeRaw } from "../test-helpers";
import { createServer } from "../server";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const env = { _meta: { [V]: "2026-07-28", [C]: {} } };
const SUB = "io.modelcontextprotocol/subscriptionId";

function makeServer() {
  const server = createServer(
    { name: "s", version: "1" },
    { capabilities: { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true } } },
  );
  const a = server.resource({ uri: "file:///a", name: "a" }, () => ({ contents: [{ uri: "file:///a", text: "a" }] }));
  const b = server.resource({ uri: "file:///b", name: "b" }, () => ({ contents: [{ uri: "file:///b", text: "b" }] }));
  return { server, a, b };
}

const isNote = (method: string) => (p: JsonRpcPayload) => !Array.isArray(p) && "method" in p && !("id" in p) && p.method === method;
const notes = (received: JsonRpcPayload[], method: string) => received.filter(isNote(method)) as { params: Record<string, unknown> }[];
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("subscriptions/listen", () => {
  it("acknowledges first, then sends only what was asked, tagged with the subscription id", async () => {
    const { server, a, b } = makeServer();
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: "L", method: "subscriptions/listen", params: { ...env, notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] } } });
    const ack = (await client.next(isNote("notifications/subscriptions/acknowledged"))) as { params: Record<string, unknown> };
    expect(ack.params).toEqual({ _meta: { [SUB]: "L" }, notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] } });
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.prompt({ name: "p" }, () => ({ messages: [] }));
    a.updated();
    b.updated();
    await tick();
    expect(notes(client.received, "notifications/tools/list_changed")).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: "L" } } }]);
    expect(notes(client.received, "notifications/prompts/list_changed")).toEqual([]);
    expect(notes(client.received, "notifications/resources/updated").map((n) => n.params)).toEqual([{ uri: "file:///a", _meta: { [SUB]: "L" } }]);
  });
  it("sends the prompts and resources list changes when those are asked, and not the tools one", async () => {
    const { server } = makeServer();
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: "P", method: "subscriptions/listen", params: { ...env, notifications: { promptsListChanged: true, resourcesListChanged: true } } });
    const ack = (await client.next(isNote("notifications/subscriptions/acknowledged"))) as { params: Record<string, unknown> };
    expect(ack.params.notifications).toEqual({ promptsListChanged: true, resourcesListChanged: true });
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.prompt({ name: "p" }, () => ({ messages: [] }));
    server.resource({ uri: "file:///c", name: "c" }, () => ({ contents: [{ uri: "file:///c", text: "c" }] }));
    await tick();
    const tagged = { _meta: { [SUB]: "P" } };
    expect(notes(client.received, "notifications/prompts/list_changed").map((n) => n.params)).toEqual([tagged]);
    expect(notes(client.received, "notifications/resources/list_changed").map((n) => n.params)).toEqual([tagged]);
    expect(notes(client.received, "notifications/tools/list_changed")).toEqual([]);
  });
  it("with nothing asked, acknowledges an empty set and sends nothing", async () => {
    const { server, a } = makeServer();
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { ...env, notifications: {} } });
    const ack = (await client.next(isNote("notifications/subscriptions/acknowledged"))) as { params: Record<string, unknown> };
    expect(ack.params.notifications).toEqual({});
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.prompt({ name: "p" }, () => ({ messages: [] }));
    server.resource({ uri: "file:///c", name: "c" }, () => ({ contents: [{ uri: "file:///c", text: "c" }] }));
    a.updated();
    await tick();
    const methods = client.received.filter((p) => !Array.isArray(p) && "method" in p).map((p) => (p as { method: string }).method);
    expect(methods).toEqual(["notifications/subscriptions/acknowledged"]);
  });
  it("leaves out types the server has no capability for", async () => {
    const server = createServer({ name: "s", version: "1" });
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { ...env, notifications: { toolsListChanged: true, promptsListChanged: true } } });
    const ack = (await client.next(isNote("notifications/subscriptions/acknowledged"))) as { params: Record<string, unknown> };
    expect(ack.params.notifications).toEqual({});
  });
  it("ends on cancel without an answer; ends on close with the result, then notifications/cancelled", async () => {
    const { server } = makeServer();
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { ...env, notifications: { toolsListChanged: true } } });
    await client.send({ jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: { ...env, notifications: { toolsListChanged: true } } });
    await client.next(isNote("notifications/subscriptions/acknowledged"));
    await client.next(isNote("notifications/subscriptions/acknowledged"));
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await tick();
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
    await tick();
    expect(notes(client.received, "notifications/tools/list_changed").map((n) => n.params)).toEqual([{ _meta: { [SUB]: 2 } }]);
    await server.close();
    const responses = client.received.filter((p) => !Array.isArray(p) && "id" in p && !("method" in p));
    expect(responses).toEqual([{ jsonrpc: "2.0", id: 2, result: { resultType: "complete", _meta: { [SUB]: 2, "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } } } }]);
    expect(notes(client.received, "notifications/cancelled").map((n) => n.params.requestId)).toEqual([2]);
  });
  it("runs through an extension's interceptor, whose next() settles when the stream ends", async () => {
    const { server } = makeServer();
    const seen: string[] = [];
    server.use({
      id: "x.test/listen",
      intercept: {
        "subscriptions/listen": async (params, _ctx, next) => {
          const uris = (params as { notifications: { resourceSubscriptions?: string[] } }).notifications.resourceSubscriptions ?? [];
          seen.push(`open ${uris.join(",")}`);
          try {
            return await next();
          } finally {
            seen.push(`end ${uris.join(",")}`);
          }
        },
      },
    });
    const client = await connectRaw(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { ...env, notifications: { resourceSubscriptions: ["file:///a"] } } });
    await client.next(isNote("notifications/subscriptions/acknowledged"));
    expect(seen).toEqual(["open file:///a"]);
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await tick();
    expect(seen).toEqual(["open file:///a", "end file:///a"]);
  });
  it("refuses a malformed filter and caps the number of streams", async () => {
    const server = createServer({ name: "s", version: "1" }, { stateless: { maxListens: 1 } });
    const client = await connectRaw(server);
    expect(errorOf(await client.call(1, "subscriptions/listen", { ...env, notifications: { toolsListChanged: "yes" } }))?.code).toBe(-32602);
    expect(errorOf(await client.call(2, "subscriptions/listen", { ...env }))?.code).toBe(-32602);
    await client.send({ jsonrpc: "2.0", id: 3, method: "subscriptions/listen", params: { ...env, notifications: {} } });
    await client.next(isNote("notifications/subscriptions/acknowledged"));
    expect(errorOf(await client.call(4, "subscriptions/listen", { ...env, notifications: {} }))?.code).toBe(-32603);
    await initializeRaw(client);
    expect(errorOf(await client.call(5, "subscriptions/listen", {}))?.code).toBe(-32601);
  });
});
