import { afterEach, describe, expect, it } from "vitest";
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JsonRpcSuccess } from "@proto/jsonrpc";
import type { CallToolResult } from "@proto/mcp-protocol";
import { createServer } from "./server";
import type { Server } from "./server-types";
import type { RequestContext } from "./context";
import { connectRaw, connectSdkClient, initializeRaw } from "./test-helpers";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function capture(): { server: Server; last: () => RequestContext } {
  server = createServer({ name: "c", version: "1" });
  let ctx: RequestContext | undefined;
  server.tool({ name: "peek", inputSchema: { type: "object" } }, (_args, c) => {
    ctx = c;
    return "ok";
  });
  return { server, last: () => ctx as RequestContext };
}

describe("the request context", () => {
  it("carries the request, the session, the principal and the protocol context", async () => {
    const { server: s, last } = capture();
    const principal = { subject: "alice", scopes: ["a"], claims: { sub: "alice" } };
    const client = await connectRaw(s, { principal });
    await initializeRaw(client, "2025-06-18", { roots: {} });
    await client.call(7, "tools/call", { name: "peek", _meta: { progressToken: "p", "com.example/x": 1 } });
    const ctx = last();
    expect(ctx.requestId).toBe(7);
    expect(ctx.method).toBe("tools/call");
    expect(ctx.principal).toEqual(principal);
    expect(ctx.meta).toEqual({ progressToken: "p", "com.example/x": 1 });
    expect(ctx.protocolVersion).toBe("2025-06-18");
    expect(ctx.clientCapabilities).toEqual({ roots: {} });
    expect(ctx.clientInfo).toEqual({ name: "raw", version: "0" });
    expect(ctx.session).toBe(client.session);
    expect(ctx.session.protocolVersion).toBe("2025-06-18");
    expect(ctx.signal).toBeInstanceOf(AbortSignal);
    expect(ctx.signal.aborted).toBe(false);
  });

  it("takes the protocol context from the request's _meta first (2026-07-28 style)", async () => {
    const { server: s, last } = capture();
    const client = await connectRaw(s);
    await initializeRaw(client, "2025-06-18", {});
    await client.call(1, "tools/call", {
      name: "peek",
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": { sampling: {} },
        "io.modelcontextprotocol/clientInfo": { name: "per-request", version: "2" },
      },
    });
    expect(last().protocolVersion).toBe("2026-07-28");
    expect(last().clientCapabilities).toEqual({ sampling: {} });
    expect(last().clientInfo).toEqual({ name: "per-request", version: "2" });
    expect(last().session.protocolVersion).toBe("2025-06-18");
  });

  it("lets a handler override a context member by assignment", async () => {
    server = createServer({ name: "c", version: "1" });
    server.tool({ name: "t", inputSchema: { type: "object" } }, (_args, ctx) => {
      const mutable = ctx as { notify: unknown };
      mutable.notify = "replaced";
      return String(mutable.notify);
    });
    const client = await connectRaw(server);
    await initializeRaw(client);
    expect(((await client.call(1, "tools/call", { name: "t" })) as JsonRpcSuccess).result).toEqual({ content: [{ type: "text", text: "replaced" }] });
  });

  it("requests and notifies the client in relation to the request; the session pings it", async () => {
    server = createServer({ name: "c", version: "1" });
    server.tool({ name: "roots", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.notify("notifications/message", { level: "info", data: "asking for roots" });
      return ctx.request("roots/list");
    });
    const { client, session } = await connectSdkClient(server, { capabilities: { roots: {} } });
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params.data));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    const result = (await client.callTool({ name: "roots" })) as CallToolResult;
    expect(result.structuredContent).toEqual({ roots: [{ uri: "file:///work", name: "work" }] });
    expect(messages).toEqual(["asking for roots"]);
    await expect(session.ping()).resolves.toBeUndefined();
    await expect(session.request("roots/list")).resolves.toEqual({ roots: [{ uri: "file:///work", name: "work" }] });
    await client.close();
  });
});
