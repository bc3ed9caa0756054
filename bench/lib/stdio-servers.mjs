// Child processes of bench/mcp-stdio.mjs and bench/cold-start.mjs: the same MCP server (an
// `echo` tool plus `--tools N` others, 100 by default) served on stdin/stdout four ways:
//   floor       a bare newline-JSON server: JSON.parse each line, answer with JSON.stringify (no
//               validation, no MCP layer): what anyone would write, the floor
//   proto       @proto/mcp-server + serveStdio (@proto/transport-stdio): our whole stack
//   proto-peer  a @proto/jsonrpc Peer over createStdioServerTransport: our transport and codec
//               without the MCP layer
//   sdk         the official SDK's McpServer + StdioServerTransport
// Run: node bench/lib/stdio-servers.mjs <side> [--tools N]. Uses the BUILT packages.
import { createRequire } from "node:module";
import { option } from "./stats.mjs";

const INIT_RESULT = (name) => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name, version: "1.0.0" } });
const ECHO_SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/** The JSON Schema of tool i: three properties (string, bounded integer, array of strings), one required. */
export function toolSchema() {
  return {
    type: "object",
    properties: { id: { type: "string" }, count: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
    required: ["id"],
  };
}

/** Name and description of tool i. */
export function toolSpec(i) {
  return { name: `tool_${i}`, description: `Tool number ${i}: does thing ${i} to a record.` };
}

function serveFloor(tools) {
  const list = [
    ...Array.from({ length: tools }, (_, i) => ({ ...toolSpec(i), inputSchema: toolSchema() })),
    { name: "echo", inputSchema: ECHO_SCHEMA },
  ];
  // One write per input chunk, as a bare server would: split lines, parse, answer, write once.
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) {
      if (line.length === 0) continue;
      const message = JSON.parse(line);
      if (message.id === undefined) continue;
      let result = {};
      if (message.method === "initialize") result = INIT_RESULT("floor");
      else if (message.method === "tools/list") result = { tools: list };
      else if (message.method === "tools/call") result = { content: [{ type: "text", text: message.params.arguments.text }] };
      out += `${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`;
    }
    if (out.length > 0) process.stdout.write(out);
  });
}

async function serveProto(tools) {
  const { createServer } = await import("@proto/mcp-server");
  const { serveStdio } = await import("@proto/transport-stdio/node");
  const server = createServer({ name: "proto", version: "1.0.0" });
  for (let i = 0; i < tools; i++) server.tool({ ...toolSpec(i), inputSchema: toolSchema() }, ({ id }) => id);
  server.tool({ name: "echo", inputSchema: ECHO_SCHEMA }, ({ text }) => text);
  await serveStdio(server, { banner: false });
}

async function serveProtoPeer(tools) {
  const { createPeer } = await import("@proto/jsonrpc");
  const { createStdioServerTransport } = await import("@proto/transport-stdio/node");
  const list = [...Array.from({ length: tools }, (_, i) => ({ ...toolSpec(i), inputSchema: toolSchema() })), { name: "echo", inputSchema: ECHO_SCHEMA }];
  const peer = createPeer(createStdioServerTransport(), { requestTimeoutMs: 0 });
  peer.handle("initialize", () => INIT_RESULT("proto-peer"));
  peer.handle("tools/list", () => ({ tools: list }));
  peer.handle("tools/call", (params) => ({ content: [{ type: "text", text: params.arguments.text }] }));
  await peer.start();
}

async function serveSdk(tools) {
  const require = createRequire(import.meta.url);
  const { z } = createRequire(require.resolve("@modelcontextprotocol/sdk/server/mcp.js"))("zod");
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const server = new McpServer({ name: "sdk", version: "1.0.0" });
  for (let i = 0; i < tools; i++) {
    server.registerTool(
      toolSpec(i).name,
      { description: toolSpec(i).description, inputSchema: { id: z.string(), count: z.number().int().min(0).optional(), tags: z.array(z.string()).optional() } },
      async ({ id }) => ({ content: [{ type: "text", text: id }] }),
    );
  }
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  await server.connect(new StdioServerTransport());
}

const SIDES = { floor: serveFloor, proto: serveProto, "proto-peer": serveProtoPeer, sdk: serveSdk };

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const side = process.argv[2];
  const serve = SIDES[side];
  if (!serve) throw new Error(`unknown side ${side}; one of ${Object.keys(SIDES).join(", ")}`);
  await serve(option("tools", 100));
}
