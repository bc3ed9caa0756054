import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import { createEchoServer } from "./testing/echo-server";
import type { EchoServer } from "./testing/echo-server";
import { serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { NodeHttpHandlerOptions } from "./node-adapter";

type Case = [string, Partial<NodeHttpHandlerOptions>];
const cases: Case[] = [
  ["stateful, auto (JSON or SSE)", {}],
  ["stateful, SSE always", { responseMode: "sse" }],
  ["stateful, JSON only", { responseMode: "json" }],
  ["stateful, resumable (event store)", { eventStore: createMemoryEventStore() }],
  ["stateless, auto", { stateless: true }],
  ["stateless, JSON only", { stateless: true, responseMode: "json" }],
];

describe.each(cases)("the official SDK client against our server: %s", (_name, options) => {
  let running: Running | undefined;
  let client: Client | undefined;
  let echo: EchoServer;
  const contentTypes: string[] = [];

  afterEach(async () => {
    await client?.close();
    await running?.close();
    client = undefined;
    running = undefined;
    contentTypes.length = 0;
  });

  async function connect(): Promise<Client> {
    echo = createEchoServer();
    running = await serve({ connect: echo.connect, ...options });
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "POST") contentTypes.push(response.headers.get("content-type") ?? String(response.status));
      return response;
    };
    const transport = new StreamableHTTPClientTransport(new URL(running.url), { fetch: recording });
    client = new Client({ name: "sdk-client", version: "1.0.0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///tmp", name: "tmp" }] }));
    await client.connect(transport);
    return client;
  }

  it("initializes, lists tools and calls one", async () => {
    const c = await connect();
    expect(c.getServerVersion()).toMatchObject({ name: "echo" });
    const { tools } = await c.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");
    const result = await c.callTool({ name: "echo", arguments: { text: "hello" } });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
  });

  it("receives log notifications related to a call, before its result", async () => {
    const c = await connect();
    const lines: unknown[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (note) => {
      lines.push(note.params.data);
    });
    const result = await c.callTool({ name: "chatty", arguments: { count: 3 } });
    expect(result.content).toEqual([{ type: "text", text: "sent 3" }]);
    if (options.responseMode === "json") {
      // JSON-only: related messages travel on the standalone stream (stateful) or nowhere (stateless)
      if (!options.stateless) await expect.poll(() => lines.length).toBe(3);
    } else {
      expect(lines).toEqual(["line 0", "line 1", "line 2"]);
      expect(contentTypes.at(-1)).toBe("text/event-stream");
    }
  });

  it("answers a server request made inside a call (roots/list)", async () => {
    if (options.stateless) return; // the client's answer would reach another transport: documented limit
    const c = await connect();
    const result = await c.callTool({ name: "ask", arguments: {} });
    expect(JSON.stringify(result.content)).toContain("file:///tmp");
  });

  it("gets unsolicited notifications on the standalone GET stream", async () => {
    if (options.stateless) return;
    const c = await connect();
    let changed = 0;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    await expect.poll(() => running?.handler.sessionCount).toBe(1);
    await echo.peers[0]?.notify("notifications/tools/list_changed");
    await expect.poll(() => changed).toBe(1);
  });

  it("ends the session with DELETE on terminateSession", async () => {
    if (options.stateless) return;
    const c = await connect();
    expect(running?.handler.sessionCount).toBe(1);
    await (c.transport as StreamableHTTPClientTransport).terminateSession();
    expect(running?.handler.sessionCount).toBe(0);
  });
});
