import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as node from "./node";

// Pins the public surface: a change here is a change of the package's API (update on purpose).
describe("@proto/transport-http exports", () => {
  it("root entry (runtime-neutral)", () => {
    expect(Object.keys(root).sort()).toEqual([
      "DEFAULT_JWT_ALGORITHMS",
      "HttpClientError",
      "HttpClientErrorCode",
      "HttpClientFaultCode",
      "HttpFaultCode",
      "HttpServerError",
      "HttpServerFault",
      "JwtFailure",
      "JwtFaultCode",
      "LOST_RESPONSE_CODE",
      "bearerChallenge",
      "bearerToken",
      "cachedToken",
      "createHttpClientTransport",
      "createJwtVerifier",
      "createMemoryEventStore",
      "createMemoryMessageBus",
      "createMemorySessionStore",
      "createSseClientTransport",
      "createStreamableHttpClientTransport",
      "createStreamableHttpHandler",
      "isHttpClientError",
      "isHttpServerError",
      "isLoopbackAddress",
      "protectedResourceMetadata",
      "protectedResourceMetadataUrl",
      "staticToken",
    ]);
  });

  it("./node entry (ws, child_process, node:http)", () => {
    expect(Object.keys(node).sort()).toEqual([
      "MCP_SUBPROTOCOL",
      "commandToken",
      "createNodeHttpHandler",
      "createNodeHttpServer",
      "createWebSocketClientTransport",
      "createWebSocketServer",
    ]);
  });

  it("keeps the former table names as aliases: the server side is one table, HttpFaultCode", () => {
    expect(root.HttpServerFault).toBe(root.HttpFaultCode);
    expect(root.HttpClientErrorCode).toBe(root.HttpClientFaultCode);
    expect(root.JwtFailure).toBe(root.JwtFaultCode);
    expect(root.HttpFaultCode).toMatchObject({ Refused: "REFUSED", SessionNotFound: "SESSION_NOT_FOUND", StreamGone: "STREAM_GONE", ConnectFailed: "CONNECT_FAILED" });
    expect(new Set(Object.values(root.HttpFaultCode)).size).toBe(Object.keys(root.HttpFaultCode).length);
  });
});
