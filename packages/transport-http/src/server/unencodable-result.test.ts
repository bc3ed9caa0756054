/**
 * Regression: a result that cannot be serialised (a `BigInt`) used to leave an HTTP POST
 * unanswered in json and auto mode and end it empty in sse mode, because the exchange marked the
 * id answered before the write failed. The Peer now answers -32603 on the same POST, and only
 * then finishes the frame.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc } from "./testing/net";
import { startTarget } from "./testing/targets";
import type { AdapterKind, Target } from "./testing/targets";
import type { ResponseMode } from "./exchange";

const cases: [AdapterKind, ResponseMode][] = [
  ["node", "json"],
  ["node", "auto"],
  ["node", "sse"],
  ["web", "json"],
  ["web", "auto"],
  ["web", "sse"],
];

async function messagesOf(response: Response): Promise<unknown[]> {
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    const events = await readEvents(response);
    return events.map((event) => JSON.parse(event.data) as unknown);
  }
  const body: unknown = JSON.parse(await response.text());
  return Array.isArray(body) ? body : [body];
}

describe.each(cases)("an unserialisable result (%s adapter, %s mode)", (kind, mode) => {
  let target: Target | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function open(protocolVersion = "2025-11-25"): Promise<{ t: Target; headers: Record<string, string> }> {
    const echo = createEchoServer();
    const t = await startTarget(kind, { connect: echo.connect, responseMode: mode });
    target = t;
    const init = await t.fetch(t.url, { method: "POST", headers: POST_HEADERS, body: initBody(0, protocolVersion) });
    await init.text();
    const headers = { ...POST_HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": protocolVersion };
    return { t, headers };
  }

  it.each(["x/bigint", "tools/call bigint", "tools/call chatty-bigint"])("is answered -32603 on the same POST (%s)", async (call) => {
    const { t, headers } = await open();
    const [method, tool] = call.split(" ") as [string, string | undefined];
    const body = rpc(7, method, tool === undefined ? undefined : { name: tool, arguments: {} });
    const response = await t.fetch(t.url, { method: "POST", headers, body });
    expect(response.status).toBe(200);
    const messages = await messagesOf(response);
    expect(messages.filter((m) => (m as { id?: unknown }).id === 7)).toEqual([{ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error" } }]);
  });

  it("answers the good request of a batch and -32603 for the bad one (2025-03-26)", async () => {
    const { t, headers } = await open("2025-03-26");
    const body = `[${rpc(1, "x/bigint")},${rpc(2, "ping")}]`;
    const response = await t.fetch(t.url, { method: "POST", headers, body });
    const messages = await messagesOf(response);
    const byId = new Map(messages.map((m) => [(m as { id: number }).id, m]));
    expect(byId.get(1)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(byId.get(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    expect(messages).toHaveLength(2);
  });
});
