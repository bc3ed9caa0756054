/**
 * Child process of test/server-stdio.test.ts: a @proto/mcp-server with tools (validated,
 * hidden, lazy, paged two at a time) served on stdin/stdout by serveStdio.
 */
import { createServer } from "@proto/mcp-server";
import { serveStdio } from "@proto/transport-stdio/node";

const server = createServer({ name: "stdio-tools", version: "1.0.0", instructions: "Tools over stdio." }, { pageSize: 2 });
server.tool(
  {
    name: "add",
    description: "Adds two numbers",
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"], additionalProperties: false },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
  ({ a, b }) => ({ sum: a + b }),
);
server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string", maxLength: 10 } }, required: ["text"] } }, ({ text }) => text);
server.tool({ name: "secret", hidden: true, inputSchema: { type: "object" } }, () => "never");
let loads = 0;
server.tool({
  name: "lazy",
  inputSchema: { type: "object" },
  load: async () => {
    loads++;
    return () => "loaded on demand";
  },
});
server.tool({ name: "loads", inputSchema: { type: "object" } }, () => ({ loads }));
serveStdio(server, { banner: false });
