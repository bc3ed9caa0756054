import { describe, expect, it } from "vitest";
import type { JsonRpcPayload } from "@proto/jsonrpc";
import { createServer } from "../server";
import { connectRaw } from "../test-helpers";
import type { ListenFanout } from "./fanout";

function memoryBus(): ListenFanout & { published: number } {
  const listeners = new Map<string, ((message: string) => void)[]>();
  const bus = {
    published: 0,
    publish(channel: string, message: string) {
      bus.published += 1;
      for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(message));
    },
    subscribe(channel: string, listener: (message: string) => void) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
  };
  return bus;
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const isUpdate = (p: JsonRpcPayload) => !Array.isArray(p) && "method" in p && p.method === "notifications/resources/updated";

describe("stateless.fanout: listen streams of every instance", () => {
  it("delivers an update made on one instance to the listen streams of both, once each", async () => {
    const bus = memoryBus();
    const make = () => {
      const server = createServer({ name: "s", version: "1" }, { stateless: { fanout: bus } });
      server.resource({ uri: "test://a", name: "a" }, () => ({ contents: [{ uri: "test://a", text: "a" }] }));
      return server;
    };
    const [one, two] = [make(), make()];
    const clients = await Promise.all([connectRaw(one), connectRaw(two)]);
    for (const client of clients) {
      await client.send({ jsonrpc: "2.0", id: "L", method: "subscriptions/listen", params: { _meta: META, notifications: { resourceSubscriptions: ["test://a"] } } });
      await client.next((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/subscriptions/acknowledged");
    }
    const before = bus.published; // registering a resource is a list change: published too
    one.resourceUpdated("test://a");
    for (const client of clients) await client.next(isUpdate);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(clients.map((c) => c.received.filter(isUpdate).length)).toEqual([1, 1]);
    expect(bus.published - before).toBe(1);
    await Promise.all([one.close(), two.close()]);
  });

  it("refuses a fanout without publish and subscribe", () => {
    expect(() => createServer({ name: "s", version: "1" }, { stateless: { fanout: {} as ListenFanout } })).toThrow(/publish\(channel, message\) and subscribe/);
  });
});
