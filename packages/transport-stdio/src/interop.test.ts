import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createPeer } from "@proto/jsonrpc";
import { fixtureCommand, fixtureTransport } from "./testing/run-fixture";

describe("interop with the official SDK over real pipes", () => {
  it("our client transport speaks to an SDK McpServer", async () => {
    const transport = fixtureTransport("sdk-server.ts");
    const peer = createPeer(transport);
    await peer.start();
    const init = await peer.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "proto-test", version: "0.0.0" },
    });
    expect(init).toMatchObject({ serverInfo: { name: "sdk-fixture", version: "9.9.9" } });
    await peer.notify("notifications/initialized");
    expect(await peer.request("tools/list")).toMatchObject({ tools: [{ name: "shout" }] });
    expect(await peer.request("tools/call", { name: "shout", arguments: {} })).toEqual({ content: [{ type: "text", text: "HELLO" }] });
    await peer.close();
    expect(transport.exitStatus?.signal ?? null).not.toBe("SIGKILL");
  });

  it("an SDK Client with its StdioClientTransport speaks to serveStdio", async () => {
    const run = fixtureCommand("serve.ts");
    const transport = new StdioClientTransport({ command: run.command, args: run.args, cwd: run.cwd, env: run.env, stderr: "pipe" });
    const client = new Client({ name: "sdk-client", version: "1.0.0" });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: "fixture-server", version: "1.2.3" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["greet", "add"]);
    expect(await client.callTool({ name: "add", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "called add" }] });
    await client.close();
  });
});
