import { describe, expect, it } from "vitest";
import { createServer } from "./server";
import type { SessionPersistence, SessionSnapshot } from "./session-shared";
import { connectRaw } from "./test-helpers";

function definition() {
  const server = createServer({ name: "shared", version: "1.0.0" });
  server.resource({ uri: "test://a", name: "a" }, () => ({ contents: [{ uri: "test://a", text: "a" }] }));
  return server;
}

function persistence(snapshot?: unknown): SessionPersistence & { saved: SessionSnapshot[]; change?: (s: unknown) => void } {
  const box: SessionPersistence & { saved: SessionSnapshot[]; change?: (s: unknown) => void } = {
    snapshot,
    saved: [],
    save: (s) => void box.saved.push(s),
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
