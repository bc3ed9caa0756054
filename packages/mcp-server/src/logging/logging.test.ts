import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { LOGGING_LEVELS } from "@proto/mcp-protocol";
import type { LoggingLevel } from "@proto/mcp-protocol";
import { EmptyResultSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";
import { isLoggingLevel } from "./logging";

function serverWithEmitter() {
  const s = createServer({ name: "log", version: "1" });
  s.tool({ name: "emit", inputSchema: { type: "object" } }, async (_args, ctx) => {
    for (const level of LOGGING_LEVELS) await ctx.log(level, { level }, "emitter");
    return "done";
  });
  return s;
}

function collect(client: Client): LoggingLevel[] {
  const levels: LoggingLevel[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    levels.push(n.params.level);
    expect(n.params.logger === undefined || n.params.logger === "emitter" || n.params.logger === "bg").toBe(true);
  });
  return levels;
}

describe("logging with the official SDK client", () => {
  it("sends only messages at or above each session's own level", async () => {
    const s = serverWithEmitter();
    const a = await connectSdkClient(s);
    const b = await connectSdkClient(s);
    const gotA = collect(a.client);
    const gotB = collect(b.client);
    expect(a.client.getServerCapabilities()?.logging).toEqual({});
    await a.client.setLoggingLevel("warning");
    await b.client.setLoggingLevel("debug");
    await a.client.callTool({ name: "emit", arguments: {} });
    await b.client.callTool({ name: "emit", arguments: {} });
    await a.client.ping();
    await b.client.ping();
    expect(gotA).toEqual(["warning", "error", "critical", "alert", "emergency"]);
    expect(gotB).toEqual([...LOGGING_LEVELS]);
  });

  it("uses info before the client sets a level", async () => {
    const s = serverWithEmitter();
    const { client } = await connectSdkClient(s);
    const got = collect(client);
    await client.callTool({ name: "emit", arguments: {} });
    await client.ping();
    expect(got).toEqual(LOGGING_LEVELS.slice(1));
  });

  it("starts sessions at the server's logLevel option, and refuses an unknown one", async () => {
    const s = createServer({ name: "log", version: "1" }, { logLevel: "critical" });
    s.tool({ name: "emit", inputSchema: { type: "object" } }, async (_args, ctx) => {
      for (const level of LOGGING_LEVELS) await ctx.log(level, { level });
      return "done";
    });
    const { client } = await connectSdkClient(s);
    const got = collect(client);
    await client.callTool({ name: "emit", arguments: {} });
    await client.ping();
    expect(got).toEqual(["critical", "alert", "emergency"]);
    expect(() => createServer({ name: "log", version: "1" }, { logLevel: "loud" as LoggingLevel })).toThrow(/option logLevel/);
  });

  it("refuses an unknown level with -32602 and keeps the previous one", async () => {
    const s = serverWithEmitter();
    const { client } = await connectSdkClient(s);
    const got = collect(client);
    await client.setLoggingLevel("error");
    await expect(client.request({ method: "logging/setLevel", params: { level: "loud" } }, EmptyResultSchema)).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
    await client.callTool({ name: "emit", arguments: {} });
    await client.ping();
    expect(got).toEqual(["error", "critical", "alert", "emergency"]);
  });

  it("logs outside a request to one session or to all, each at its level", async () => {
    const s = serverWithEmitter();
    const a = await connectSdkClient(s);
    const b = await connectSdkClient(s);
    const gotA = collect(a.client);
    const gotB = collect(b.client);
    await a.client.setLoggingLevel("error");
    await s.sendLog(a.session, "critical", "only a", "bg");
    s.broadcastLog("notice", "to all that want notice", "bg");
    await a.client.ping();
    await b.client.ping();
    expect(gotA).toEqual(["critical"]);
    expect(gotB).toEqual(["notice"]);
    expect(() => s.broadcastLog("loud" as LoggingLevel, "x")).toThrow(TypeError);
  });

  it("knows the eight levels", () => {
    expect(LOGGING_LEVELS.every(isLoggingLevel)).toBe(true);
    expect(isLoggingLevel("trace")).toBe(false);
  });
});
