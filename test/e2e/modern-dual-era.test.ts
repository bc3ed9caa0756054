/**
 * One server definition, both eras at once: a 2025 session and modern requests interleaved on
 * one stdio process, `subscriptions/listen` beside the session's own list_changed, and a
 * listen stream over Streamable HTTP that the client ends by closing it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelope, standardHeaders } from "../support/modern-http";
import { httpWire, stdioWire, type ModernWire } from "../support/modern-wires";
import { eventually } from "../support/wait";

const SUB = "io.modelcontextprotocol/subscriptionId";
type Message = Record<string, unknown>;

describe("a 2025 session and modern requests on one stdio process", () => {
  let wire: ModernWire;
  beforeAll(async () => {
    wire = await stdioWire();
  }, 30_000);
  afterAll(() => wire.stop());

  it("answers each era in its own wire format, interleaved", async () => {
    const init = await wire.call("i", "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect((init.response.result as Message).protocolVersion).toBe("2025-11-25");
    await wire.notify?.("notifications/initialized", {});
    const legacy = await wire.call(1, "tools/list", {});
    const modern = await wire.call(2, "tools/list", envelope());
    const legacyAgain = await wire.call(3, "tools/list", {});
    expect(legacy.response.result).not.toHaveProperty("resultType");
    expect(modern.response.result).toMatchObject({ resultType: "complete", cacheScope: "private" });
    expect(legacyAgain.response).toEqual({ ...legacy.response, id: 3 });
    expect((await wire.call(4, "ping", {})).response.result).toEqual({});
    expect((await wire.call(5, "ping", envelope())).response.error).toMatchObject({ code: -32601 });
    expect((await wire.call(6, "initialize", envelope())).response.error).toMatchObject({ code: -32601 });
  });
  it("tags the listen stream's notifications, and the session still gets its own", async () => {
    const received = wire.received ?? [];
    const before = received.length;
    void wire.call("L", "subscriptions/listen", { ...envelope(), notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///doc"] } });
    await eventually(() => received.slice(before).some((m) => m.method === "notifications/subscriptions/acknowledged"), "the acknowledgement");
    await wire.call(7, "tools/call", { name: "touch", arguments: {}, ...envelope() });
    const tagged = (m: Message) => (m.params as { _meta?: Message } | undefined)?._meta?.[SUB] === "L";
    await eventually(() => received.slice(before).filter((m) => m.method === "notifications/tools/list_changed").length === 2, "both tools/list_changed");
    const changed = received.slice(before).filter((m) => m.method === "notifications/tools/list_changed");
    expect(changed.filter(tagged)).toHaveLength(1);
    await eventually(() => received.slice(before).some((m) => m.method === "notifications/resources/updated" && tagged(m)), "resources/updated on the listen stream");
    await wire.notify?.("notifications/cancelled", { requestId: "L" });
    const after = received.length;
    await wire.call(8, "tools/call", { name: "touch", arguments: {}, ...envelope() });
    await eventually(() => received.slice(after).some((m) => m.method === "notifications/tools/list_changed"), "the session's tools/list_changed");
    expect(received.slice(after).filter(tagged)).toEqual([]);
  });
});

describe("subscriptions/listen over Streamable HTTP", () => {
  let wire: Awaited<ReturnType<typeof httpWire>>;
  beforeAll(async () => {
    wire = await httpWire();
  });
  afterAll(() => wire.stop());

  it("streams the acknowledgement and the changes asked for; closing the stream ends it", async () => {
    const params = { ...envelope(), notifications: { toolsListChanged: true, promptsListChanged: true } };
    const aborter = new AbortController();
    const res = await fetch(wire.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...standardHeaders("subscriptions/listen", params) },
      body: JSON.stringify({ jsonrpc: "2.0", id: "listen-1", method: "subscriptions/listen", params }),
      signal: aborter.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const messages: Message[] = [];
    let buffer = "";
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const { value } = await reader.read();
        buffer += new TextDecoder().decode(value);
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("data:") && line.length > 5) messages.push(JSON.parse(line.slice(5)) as Message);
      }
    };
    await readUntil(() => messages.length >= 1);
    expect(messages[0]).toEqual({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { [SUB]: "listen-1" }, notifications: { toolsListChanged: true, promptsListChanged: true } } });
    await wire.call(1, "tools/call", { name: "touch", arguments: {}, ...envelope() });
    await readUntil(() => messages.length >= 2);
    expect(messages[1]).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [SUB]: "listen-1" } } });
    aborter.abort();
    await reader.cancel().catch(() => undefined);
    expect((await wire.call(2, "tools/call", { name: "touch", arguments: {}, ...envelope() })).response.result).toMatchObject({ resultType: "complete" });
  });
});
