/**
 * The 4 MiB / 64 / 100 limits come from one module (`@proto/jsonrpc`) and are checked by one
 * validator (`checkLimit`): every package refuses the same values with the same words (a limit
 * of 1.5 used to pass the HTTP server, 0 the WebSocket server, where `ws` reads 0 as "no limit"),
 * and a package's own default is the exported one.
 */
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { checkLimit, decode, DEFAULT_MAX_BATCH, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES, resolveLimits } from "@proto/jsonrpc";
import { createSseClientTransport, createStreamableHttpClientTransport, createStreamableHttpHandler } from "@proto/transport-http";
import { createWebSocketClientTransport, createWebSocketServer } from "@proto/transport-http/node";
import { createLineDecoder, DEFAULT_MAX_LINE_BYTES } from "@proto/transport-stdio";
import { createStdioServerTransport } from "@proto/transport-stdio/node";

type Limits = { maxMessageBytes?: number; maxDepth?: number; maxBatch?: number };
const connect = async () => undefined;

const factories: [string, (limits: Limits) => unknown][] = [
  ["decode", (limits) => decode("{}", limits)],
  ["createLineDecoder", (limits) => createLineDecoder({ limits })],
  ["createStdioServerTransport", (limits) => createStdioServerTransport({ limits })],
  ["createStreamableHttpHandler", (limits) => createStreamableHttpHandler({ connect, ...limits })],
  ["createStreamableHttpClientTransport", (limits) => createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", limits)],
  ["createSseClientTransport", (limits) => createSseClientTransport("http://127.0.0.1:1/sse", limits)],
  ["createWebSocketClientTransport", (limits) => createWebSocketClientTransport("ws://127.0.0.1:1/mcp", limits)],
  ["createWebSocketServer", (limits) => createWebSocketServer({ server: createServer(), connect, ...limits })],
];

describe("one validator for the message limits, in every package", () => {
  it.each(factories)("%s refuses what checkLimit refuses, with its words", (_name, make) => {
    for (const name of ["maxMessageBytes", "maxDepth", "maxBatch"] as const) {
      for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
        expect(() => make({ [name]: bad }), `${name}: ${bad}`).toThrow(new TypeError(`${name} must be a positive integer (1 or more), got ${String(bad)}`));
      }
      expect(() => make({ [name]: 1 })).not.toThrow();
    }
  });

  it("the defaults are one set of numbers", () => {
    expect([DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_DEPTH, DEFAULT_MAX_BATCH]).toEqual([4 * 1024 * 1024, 64, 100]);
    expect(resolveLimits(undefined)).toEqual({ maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES, maxDepth: DEFAULT_MAX_DEPTH, maxBatch: DEFAULT_MAX_BATCH });
    expect(DEFAULT_MAX_LINE_BYTES).toBe(DEFAULT_MAX_MESSAGE_BYTES);
    expect(checkLimit("x", undefined, 7)).toBe(7);
  });
});
