/**
 * Ids above 2^53 used to be echoed altered (9007199254740993 came back as ...992, the answer to
 * another request), fractional ids and progress tokens were accepted. Over the wire now: an id
 * must be a string or a safe integer (-32600, id null, saying to send it as a string), a progress
 * token the same (-32602), and a `__proto__` key in arguments is -32602 naming its path.
 */
import { describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { rawStdio } from "../support/raw-stdio";

function makeServer() {
  const server = createServer({ name: "ids", version: "1.0.0" });
  server.tool({ name: "echo", inputSchema: { type: "object" } }, () => "ok");
  return server;
}

describe("ids and progress tokens over stdio", () => {
  it("refuses an id past 2^53 or with a fraction instead of echoing it altered", async () => {
    const stdio = await rawStdio(makeServer(), { version: "2025-11-25" });
    for (const id of ["9007199254740993", "-9007199254740993", "1.5", "1e300"]) {
      const answer = await stdio.ask(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(answer).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining("send such an id as a string") } });
    }
    expect(await stdio.ask('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}')).toEqual({ jsonrpc: "2.0", id: 9007199254740991, result: {} });
    expect(await stdio.ask('{"jsonrpc":"2.0","id":"9007199254740993","method":"ping"}')).toEqual({ jsonrpc: "2.0", id: "9007199254740993", result: {} });
    await stdio.close();
  });

  it("refuses a fractional or huge progress token with -32602", async () => {
    const stdio = await rawStdio(makeServer(), { version: "2025-11-25" });
    for (const token of ["1.5", "9007199254740993"]) {
      const answer = await stdio.ask(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"progressToken":${token}}}}`);
      expect(answer).toMatchObject({ id: 7, error: { code: -32602, message: expect.stringContaining("progressToken must be a string or an integer") } });
    }
    await stdio.close();
  });

  it("refuses a __proto__ key inside arguments with -32602 naming it and its path", async () => {
    const stdio = await rawStdio(makeServer(), { version: "2025-11-25" });
    const answer = await stdio.ask('{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"echo","arguments":{"a":{"__proto__":{"x":1}}}}}');
    expect(answer).toMatchObject({ id: 8, error: { code: -32602, message: expect.stringContaining('the key "__proto__" in params.arguments.a is not accepted') } });
    expect(await stdio.ask('{"jsonrpc":"2.0","id":9,"method":"ping"}')).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    await stdio.close();
  });
});
