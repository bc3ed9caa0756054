// The client ends of bench/mcp-stdio.mjs: each spawns its server (bench/lib/stdio-servers.mjs)
// and returns { pid, call(text), list(), close() }. The floor client is as bare as the floor
// server (a Map of pending ids, one write per request); the others are the real clients.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exited, onLines } from "./proc.mjs";

const SERVERS = fileURLToPath(new URL("./stdio-servers.mjs", import.meta.url));
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } };
const args = (side, tools) => [SERVERS, side, "--tools", String(tools)];

/** The floor's client: one write per request, or (`coalesce`) the requests of one tick in one write, as ours does. */
async function floorClient(tools, coalesce) {
  const child = spawn(process.execPath, args("floor", tools), { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let next = 1;
  onLines(child.stdout, (line) => {
    const message = JSON.parse(line);
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    resolve?.(message.result);
  });
  let out = "";
  const flush = () => {
    child.stdin.write(out);
    out = "";
  };
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      const line = `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
      if (!coalesce) child.stdin.write(line);
      else if ((out += line).length === line.length) process.nextTick(flush);
    });
  await request("initialize", INIT);
  child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return {
    pid: child.pid,
    call: (text) => request("tools/call", { name: "echo", arguments: { text } }),
    list: () => request("tools/list", {}),
    close: async () => {
      child.stdin.end();
      await exited(child);
    },
  };
}

async function protoClient(tools) {
  const { createClient } = await import("@proto/mcp-client");
  const { createStdioClientTransport } = await import("@proto/transport-stdio/node");
  const transport = createStdioClientTransport({ command: process.execPath, args: args("proto", tools), stderr: "inherit" });
  const client = createClient({ info: INIT.clientInfo, requestTimeoutMs: 0 });
  await client.connect(transport);
  return { pid: transport.pid, call: (text) => client.callTool("echo", { text }), list: () => client.listTools(), close: () => client.close() };
}

async function protoPeerClient(tools) {
  const { createPeer } = await import("@proto/jsonrpc");
  const { createStdioClientTransport } = await import("@proto/transport-stdio/node");
  const transport = createStdioClientTransport({ command: process.execPath, args: args("proto-peer", tools), stderr: "inherit" });
  const peer = createPeer(transport, { requestTimeoutMs: 0 });
  await peer.start();
  await peer.request("initialize", INIT);
  await peer.notify("notifications/initialized");
  return {
    pid: transport.pid,
    call: (text) => peer.request("tools/call", { name: "echo", arguments: { text } }),
    list: () => peer.request("tools/list", {}),
    close: () => peer.close(),
  };
}

async function sdkClient(tools) {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: args("sdk", tools), stderr: "inherit" });
  const client = new Client(INIT.clientInfo);
  await client.connect(transport);
  return {
    pid: transport.pid,
    call: (text) => client.callTool({ name: "echo", arguments: { text } }),
    list: () => client.listTools(),
    close: () => client.close(),
  };
}

/** The sides, in display order. */
export const STDIO_SIDES = {
  floor: { label: "bare newline-JSON floor", open: (tools) => floorClient(tools, false) },
  "floor-coalesced": { label: "bare floor, writes coalesced per tick", open: (tools) => floorClient(tools, true) },
  "proto-peer": { label: "@proto jsonrpc Peer + stdio (no MCP layer)", open: protoPeerClient },
  proto: { label: "@proto mcp-client + mcp-server + stdio", open: protoClient },
  sdk: { label: "official SDK Client + McpServer + stdio", open: sdkClient },
};
