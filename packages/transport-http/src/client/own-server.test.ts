import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpClientEvent } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive, initialize } from "./testing/drive";
import { createNodeHttpHandler, createNodeHttpServer } from "../server/node-adapter";
import type { NodeHttpHandler, NodeHttpHandlerOptions } from "../server/node-adapter";
import { createMemoryEventStore } from "../server/event-store";
import { createEchoServer } from "../server/testing/echo-server";
import type { EchoServer } from "../server/testing/echo-server";

// Our client against our own Streamable HTTP server: the two halves of this package must meet.
let server: Server | undefined;
let handler: NodeHttpHandler | undefined;
afterEach(async () => {
  await handler?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  server = handler = undefined;
});

async function serve(options: Omit<NodeHttpHandlerOptions, "connect"> = {}): Promise<{ url: URL; echo: EchoServer }> {
  const echo = createEchoServer();
  handler = createNodeHttpHandler({ ...options, connect: (t) => echo.connect(t) });
  server = createNodeHttpServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), echo };
}

async function call(peer: Awaited<ReturnType<typeof drive>>["peer"], name: string, args: object = {}): Promise<string | undefined> {
  const result = (await peer.request("tools/call", { name, arguments: args })) as { content?: { text?: string }[] };
  return result.content?.[0]?.text;
}

describe("our client against our server", () => {
  for (const responseMode of ["auto", "json", "sse"] as const) {
    it(`calls tools and gets related notifications (stateful, ${responseMode})`, async () => {
      const { url } = await serve({ responseMode });
      const transport = createStreamableHttpClientTransport(url);
      const { peer, logs } = await drive(transport);
      expect((await initialize(peer)).protocolVersion).toBe("2025-11-25");
      expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect(await call(peer, "echo", { text: "hi" })).toBe("hi");
      expect(await call(peer, "chatty", { count: 2 })).toBe("sent 2");
      if (responseMode !== "json") expect(logs).toEqual(["line 0", "line 1"]);
      expect(await call(peer, "ask")).toBe(JSON.stringify({ roots: [] }));
      await peer.close();
      expect(handler?.sessionCount).toBe(0);
    });
  }

  it("works stateless", async () => {
    const { url } = await serve({ stateless: true });
    const transport = createStreamableHttpClientTransport(url);
    const { peer } = await drive(transport);
    await initialize(peer);
    expect(transport.sessionId).toBeUndefined();
    expect(await call(peer, "echo", { text: "stateless" })).toBe("stateless");
    await peer.close();
  });

  it("resumes streams the server closes early (SSE polling), losing and repeating nothing", async () => {
    const { url, echo } = await serve({ eventStore: createMemoryEventStore(), closeSseAfterMs: 20, retryMs: 5, responseMode: "sse" });
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(url, { standaloneStream: false, onEvent: (e) => events.push(e) });
    const { peer, logs } = await drive(transport);
    await initialize(peer);
    const ticking = call(peer, "ticks", { count: 20 });
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      echo.gate.release();
    }
    expect(await ticking).toBe("ticked 20");
    expect(logs).toEqual(Array.from({ length: 20 }, (_, tick) => ({ tick })));
    expect(events.some((e) => e.type === "reconnecting" && e.stream === "request" && e.delayMs === 5)).toBe(true);
    await peer.close();
  });

  it("re-initializes when the server forgot the session", async () => {
    const { url } = await serve();
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(url, { standaloneStream: false, onEvent: (e) => events.push(e) });
    const { peer } = await drive(transport);
    await initialize(peer);
    const first = transport.sessionId!;
    const deleted = await fetch(url, { method: "DELETE", headers: { "mcp-session-id": first, "mcp-protocol-version": "2025-11-25" } });
    expect(deleted.ok).toBe(true);
    expect(await call(peer, "echo", { text: "again" })).toBe("again");
    expect(events).toContainEqual(expect.objectContaining({ type: "reinitialized", previousSessionId: first }));
    expect(transport.sessionId).not.toBe(first);
    await peer.close();
  });
});
