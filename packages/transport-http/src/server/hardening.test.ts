/**
 * Regressions from the security review of the Streamable HTTP server: a compressed body is 415
 * before it is read, and a request's MCP-Protocol-Version must be the one its session
 * negotiated (a 2025-03-26 header on a 2025-11-25 session used to get batches answered).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, rpc } from "./testing/net";
import { startTarget } from "./testing/targets";
import type { AdapterKind, Target } from "./testing/targets";

describe.each<AdapterKind>(["node", "web"])("HTTP hardening (%s adapter)", (kind) => {
  let target: Target | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function open(): Promise<{ t: Target; headers: Record<string, string> }> {
    const t = await startTarget(kind, { connect: createEchoServer().connect });
    target = t;
    const init = await t.fetch(t.url, { method: "POST", headers: POST_HEADERS, body: initBody(0, "2025-11-25") });
    await init.text();
    return { t, headers: { ...POST_HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" } };
  }

  it("answers 415 to a Content-Encoding other than identity, and accepts identity", async () => {
    const { t, headers } = await open();
    for (const encoding of ["gzip", "br", "deflate, identity"]) {
      const response = await t.fetch(t.url, { method: "POST", headers: { ...headers, "content-encoding": encoding }, body: rpc(1, "ping") });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining("Content-Encoding") } });
    }
    const plain = await t.fetch(t.url, { method: "POST", headers: { ...headers, "content-encoding": "identity" }, body: rpc(2, "ping") });
    expect(plain.status).toBe(200);
    expect(await plain.json()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("refuses a MCP-Protocol-Version that differs from the session's negotiated version (no batch slips through)", async () => {
    const { t, headers } = await open();
    const old = { ...headers, "mcp-protocol-version": "2025-03-26" };
    const batch = await t.fetch(t.url, { method: "POST", headers: old, body: `[${rpc(1, "ping")},${rpc(2, "ping")}]` });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { message: expect.stringContaining("negotiated (2025-11-25)") } });
    const single = await t.fetch(t.url, { method: "POST", headers: old, body: rpc(3, "ping") });
    expect(single.status).toBe(400);
    await single.text();
    const get = await t.fetch(t.url, { method: "GET", headers: { ...old, accept: "text/event-stream" } });
    expect(get.status).toBe(400);
    await get.text();
    const ok = await t.fetch(t.url, { method: "POST", headers, body: rpc(4, "ping") });
    expect(await ok.json()).toEqual({ jsonrpc: "2.0", id: 4, result: {} });
  });
});
