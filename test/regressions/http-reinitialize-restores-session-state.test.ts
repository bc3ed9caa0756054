/**
 * A transparent Streamable HTTP re-initialization (the server lost the session; the transport
 * replays `initialize` and re-sends the call) leaves the client with a fresh server-side session.
 * The client restores what it had asked for and drops its cached lists, as after a reconnect:
 * resource subscriptions and the log level come back, `listAllTools()` asks again, and
 * `reconnected` is raised. The loss is made real for the server: the client's `fetch` sends
 * the old session id in a form the server has never issued, so it answers 404.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { eventually } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const URI = "test://state/watched";

describe("Streamable HTTP re-initialization restores the session state", () => {
  it("re-subscribes, restores the log level, drops cached lists and raises reconnected", async () => {
    const server = createServer({ name: "stateful", version: "1.0.0" });
    server.tool({ name: "talk", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.log("debug", "a debug line");
      return "said";
    });
    server.resource({ uri: URI, name: "watched" }, () => "contents");
    const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => server.connect(t) }));
    const port = await listenLoopback(listener);
    cleanup.push(async () => (await closeHttp(listener), await server.close()));

    const lost = new Set<string>();
    const methods: string[] = [];
    const fetchThrough = (input: URL, init: RequestInit): Promise<Response> => {
      const headers = new Headers(init.headers);
      const id = headers.get("mcp-session-id");
      if (id !== null && lost.has(id)) headers.set("mcp-session-id", `lost-${id}`);
      if (typeof init.body === "string") for (const m of [JSON.parse(init.body) as { method?: string }].flat()) if (m.method) methods.push(m.method);
      return fetch(input, { ...init, headers });
    };
    const transport = createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { fetch: fetchThrough });
    // Sessions, and so their loss, exist on the 2025-11-25 wire only.
    const client = createClient({ info: { name: "host", version: "1" }, protocol: "2025-11-25" });
    cleanup.push(() => client.close());
    const debugLines: unknown[] = [];
    const reconnected: unknown[] = [];
    client.on("log", (message) => void (message.level === "debug" && debugLines.push(message.data)));
    client.on("reconnected", (event) => void reconnected.push(event));
    await client.connect(transport);
    await client.subscribe(URI);
    await client.setLoggingLevel("debug");
    await client.listAllTools();
    const before = transport.sessionId ?? "";

    lost.add(before);
    methods.length = 0;
    await client.callTool("talk", {});
    expect(transport.sessionId).not.toBe(before);
    expect(reconnected).toHaveLength(1);
    await eventually(() => methods.includes("resources/subscribe") && methods.includes("logging/setLevel"), "the state to be restored");
    await eventually(() => server.resourceUpdated(URI) === 1, "the new session to be subscribed");

    debugLines.length = 0;
    await client.callTool("talk", {});
    expect(debugLines).toEqual(["a debug line"]);
    // The list cached before the loss was dropped: it was asked for again on the new session.
    await client.listAllTools();
    expect(methods).toContain("tools/list");
    expect(client.state).toBe("connected");
  });
});
