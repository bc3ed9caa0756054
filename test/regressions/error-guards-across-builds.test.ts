/**
 * Regression: a `JsonRpcError` made by the CJS build of @proto/jsonrpc was not recognised by a
 * server running the ESM build (`instanceof` fails across two copies of a class), so a handler
 * that threw it was answered -32603 "Internal error" instead of its own code. Every error class
 * now carries a `Symbol.for` brand, so `instanceof` and the `is*` guards hold across the ESM and
 * CJS builds of each package. Runs against dist/ (`pnpm build` runs before the tests).
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

type Jsonrpc = typeof import("@proto/jsonrpc");
type JsonrpcTesting = typeof import("@proto/jsonrpc/testing");
type Http = typeof import("@proto/transport-http");
type Client = typeof import("@proto/mcp-client");
type OAuth = typeof import("@proto/mcp-client/oauth");
type Stdio = typeof import("@proto/transport-stdio/node");

const packages = new URL("../../packages/", import.meta.url);
const require = createRequire(import.meta.url);

/** The ESM and the CJS build of one entry point of a package, loaded side by side. */
async function builds<T>(entry: string): Promise<{ esm: T; cjs: T }> {
  const esm = (await import(new URL(`${entry}.js`, packages).href)) as T;
  const cjs = require(fileURLToPath(new URL(`${entry}.cjs`, packages))) as T;
  return { esm, cjs };
}

describe("error guards across the ESM and CJS builds", () => {
  it("an ESM peer answers a JsonRpcError thrown from the CJS build with its own code, not -32603", async () => {
    const { esm, cjs } = await builds<Jsonrpc>("jsonrpc/dist/index");
    const { esm: testing } = await builds<JsonrpcTesting>("jsonrpc/dist/testing");
    expect(cjs.JsonRpcError).not.toBe(esm.JsonRpcError); // two copies of the class
    const [serverEnd, clientEnd] = testing.createMemoryTransportPair();
    const server = esm.createPeer(serverEnd);
    server.handle("tools/call", () => {
      throw new cjs.JsonRpcError(-32602, "unknown tool: nope", { tool: "nope" });
    });
    const client = esm.createPeer(clientEnd);
    await server.start();
    await client.start();
    const failure = await client.request("tools/call", { name: "nope" }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: -32602, message: "unknown tool: nope", data: { tool: "nope" } });
    await client.close();
    await server.close();
  });

  it("every is* guard and instanceof recognise the other build's errors", async () => {
    const jsonrpc = await builds<Jsonrpc>("jsonrpc/dist/index");
    const http = await builds<Http>("transport-http/dist/index");
    const client = await builds<Client>("mcp-client/dist/index");
    const oauth = await builds<OAuth>("mcp-client/dist/oauth");
    const stdio = await builds<Stdio>("transport-stdio/dist/node");
    for (const [from, to] of [
      ["cjs", "esm"],
      ["esm", "cjs"],
    ] as const) {
      const rpc = new jsonrpc[from].JsonRpcError(-32602, "x");
      expect(jsonrpc[to].isJsonRpcError(rpc)).toBe(true);
      expect(rpc instanceof jsonrpc[to].JsonRpcError).toBe(true);
      expect(jsonrpc[to].JsonRpcError.from(rpc)).toBe(rpc);
      expect(jsonrpc[to].isTransportError(new jsonrpc[from].TransportError("CLOSED", "x"))).toBe(true);
      expect(jsonrpc[to].isRequestError(new jsonrpc[from].RequestError("TIMEOUT", "ping", "x"))).toBe(true);
      expect(jsonrpc[to].isTransportError(rpc)).toBe(false);
      expect(http[to].isHttpClientError(new http[from].HttpClientError("CLOSED", "x"))).toBe(true);
      expect(http[to].isHttpServerError(new http[from].HttpServerError("SESSION_CLOSED", "x"))).toBe(true);
      expect(client[to].isMcpClientError(new client[from].McpClientError("CLIENT_CLOSED", "x"), "CLIENT_CLOSED")).toBe(true);
      expect(oauth[to].isOAuthError(new oauth[from].OAuthError("ABORTED", "x"))).toBe(true);
      expect(stdio[to].isStdioProcessError(new stdio[from].StdioProcessError("PROCESS_EXITED", "x", { command: "c" }))).toBe(true);
    }
  });
});
