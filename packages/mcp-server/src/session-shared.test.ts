import { describe, expect, it } from "vitest";
import { createServer } from "./server";
import type { SessionPersistence, SessionSnapshot } from "./session-shared";
import { connectRaw } from "./test-helpers";

function definition() {
  const server = createServer({ name: "shared", version: "1.0.0" });
  server.resource({ uri: "test://a", name: "a" }, () => ({ contents: [{ uri: "test://a", text: "a" }] }));
  return server;
}

type Box = SessionPersistence & { saved: SessionSnapshot[]; topics: (readonly string[] | undefined)[]; change?: (s: unknown) => void };

function persistence(snapshot?: unknown): Box {
  const box: Box = {
    snapshot,
    saved: [],
    topics: [],
    save: (s, topics) => {
      box.saved.push(s);
      box.topics.push(topics);
    },
    onChange: (listener) => void (box.change = listener),
  };
  return box;
}

describe("ConnectOptions.shared (a session served by several instances)", () => {
  it("saves what initialize, logging/setLevel and resources/subscribe changed, once per change", async () => {
    const shared = persistence();
    const client = await connectRaw(definition(), {}, { shared });
    await client.call(1, "initialize", { protocolVersion: "2025-11-25", capabilities: { sampling: {} }, clientInfo: { name: "c", version: "1" } });
    await client.call(2, "logging/setLevel", { level: "debug" });
    await client.call(3, "resources/subscribe", { uri: "test://a" });
    await client.call(4, "resources/list", {});
    expect(shared.saved).toHaveLength(3);
    expect(shared.saved.at(-1)).toEqual({
      protocolVersion: "2025-11-25",
      clientCapabilities: { sampling: {} },
      clientInfo: { name: "c", version: "1" },
      features: { logging: "debug", resources: ["test://a"] },
    });
  });

  it("saves the session's topics with its state: the list changes it is promised, one per subscribed URI", async () => {
    const shared = persistence();
    const server = definition();
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => "t");
    const client = await connectRaw(server, {}, { shared });
    await client.call(1, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect(shared.topics.at(-1)).toEqual(["notifications/tools/list_changed", "notifications/resources/list_changed"]);
    await client.call(2, "resources/subscribe", { uri: "test://a" });
    expect(shared.topics.at(-1)).toEqual(["notifications/tools/list_changed", "notifications/resources/list_changed", "resource:test://a"]);
    await client.call(3, "resources/unsubscribe", { uri: "test://a" });
    expect(shared.topics.at(-1)).toEqual(["notifications/tools/list_changed", "notifications/resources/list_changed"]);
  });

  it("with a fanout that reaches shared sessions, updates and list changes go through it, not through the replicas", async () => {
    const sent: { topic: string; method: string }[] = [];
    const announced = new Map<string, string>();
    const fanout = {
      publish: () => 0,
      subscribe: () => () => undefined,
      announce: (topic: string, version: string) => {
        const changed = announced.get(topic) !== version;
        announced.set(topic, version);
        return changed;
      },
      notifySessions: (topic: string, message: { method: string }) => void sent.push({ topic, method: message.method }),
    };
    const server = createServer({ name: "shared", version: "1.0.0" }, { stateless: { fanout } });
    server.resource({ uri: "test://a", name: "a" }, () => ({ contents: [{ uri: "test://a", text: "a" }] }));
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => "t");
    const client = await connectRaw(server, {}, { shared: persistence({ protocolVersion: "2025-11-25", clientCapabilities: {}, features: { resources: ["test://a"] } }) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    sent.length = 0;
    expect(server.resourceUpdated("test://a")).toBe(1);
    server.tool({ name: "u", inputSchema: { type: "object" } }, () => "u");
    await new Promise((resolve) => setTimeout(resolve, 10));
    // the list comes out the same again (as another instance reporting the same change would see it): not announced twice
    server.removeTool("u");
    server.tool({ name: "u", inputSchema: { type: "object" } }, () => "u");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([
      { topic: "resource:test://a", method: "notifications/resources/updated" },
      { topic: "notifications/tools/list_changed", method: "notifications/tools/list_changed" },
    ]);
    const methods = client.received.flatMap((p) => (Array.isArray(p) ? p : [p])).map((m) => ("method" in m ? m.method : "response"));
    expect(methods).toEqual([]);
  });

  it("rebuilds a session from another instance's snapshot: initialized, subscribed, at its log level", async () => {
    const server = definition();
    const snapshot: SessionSnapshot = { protocolVersion: "2025-06-18", clientCapabilities: {}, features: { logging: "error", resources: ["test://a"] } };
    const client = await connectRaw(server, {}, { shared: persistence(snapshot) });
    expect(client.session.initialized).toBe(true);
    expect(client.session.protocolVersion).toBe("2025-06-18");
    const listed = await client.call(1, "resources/list", {});
    expect("result" in listed).toBe(true);
    expect(server.resourceUpdated("test://a")).toBe(1);
    await server.sendLog(client.session, "info", "filtered out");
    await server.sendLog(client.session, "error", "sent");
    const methods = client.received.flatMap((p) => (Array.isArray(p) ? p : [p])).map((m) => ("method" in m ? m.method : "response"));
    expect(methods.filter((m) => m === "notifications/message")).toHaveLength(1);
    expect(methods).toContain("notifications/resources/updated");
  });

  it("applies snapshots saved elsewhere and ignores malformed ones", async () => {
    const server = definition();
    const shared = persistence({ protocolVersion: "2025-11-25", clientCapabilities: {}, features: {} });
    await connectRaw(server, {}, { shared });
    expect(server.resourceUpdated("test://a")).toBe(0);
    shared.change?.({ protocolVersion: "2025-11-25", clientCapabilities: {}, features: { resources: ["test://a"] } });
    expect(server.resourceUpdated("test://a")).toBe(1);
    shared.change?.({ protocolVersion: "1999-01-01", clientCapabilities: {}, features: {} });
    shared.change?.({ protocolVersion: "2025-11-25", clientCapabilities: {}, features: { resources: "test://a" } });
    expect(server.resourceUpdated("test://a")).toBe(1);
  });

  it("refuses a malformed snapshot at connect: the session stays uninitialized", async () => {
    const client = await connectRaw(definition(), {}, { shared: persistence({ protocolVersion: 7 }) });
    expect(client.session.initialized).toBe(false);
  });
});
