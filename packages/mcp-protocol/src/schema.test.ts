import { describe, expect, it } from "vitest";
import { createSchemaChecker } from "./schema-check";
import { clientNotifications, clientRequests, serverNotifications, serverRequests, urlElicitation } from "./schema-fixtures";
import { createUnsupportedVersionError, createUrlElicitationRequiredError } from "./errors";
import type { ContentBlock } from "./types/content";
import type { Tool } from "./types/tools";
import type { ElicitRequestURLParams } from "./types/elicitation";
import type { DiscoverResult } from "./types/lifecycle";

const spec = createSchemaChecker("2025-11-25");
const next = createSchemaChecker("2026-07-28");

function envelope(method: string, params: unknown, id?: number): Record<string, unknown> {
  const message: Record<string, unknown> = { jsonrpc: "2.0", method };
  if (id !== undefined) message.id = id;
  if (params !== undefined) message.params = params;
  return message;
}

describe("every typed example is valid against the 2025-11-25 schema", () => {
  const sides = [
    ["ClientRequest", "ServerResult", clientRequests],
    ["ServerRequest", "ClientResult", serverRequests],
  ] as const;
  for (const [union, resultUnion, table] of sides) {
    for (const [method, example] of Object.entries(table)) {
      if (method === "server/discover") continue; // not in 2025-11-25; checked against 2026-07-28 below
      it(`${union} ${method}`, () => {
        const message = envelope(method, example.params, 1);
        const name = spec.classify({ method, id: 1 });
        expect(spec.check(name, message)).toEqual([]);
        expect(spec.check(union, message)).toEqual([]);
        for (const result of example.results) {
          const def = "task" in (result as object) ? "CreateTaskResult" : spec.resultDefinition(method);
          expect(spec.check(def, result)).toEqual([]);
          expect(spec.check(resultUnion, result)).toEqual([]);
          expect(spec.check("JSONRPCResultResponse", { jsonrpc: "2.0", id: 1, result })).toEqual([]);
        }
      });
    }
  }
  const notes = [
    ["ClientNotification", clientNotifications],
    ["ServerNotification", serverNotifications],
  ] as const;
  for (const [union, table] of notes) {
    for (const [method, examples] of Object.entries(table)) {
      it(`${union} ${method}`, () => {
        for (const params of examples as unknown[]) {
          const message = envelope(method, params);
          expect(spec.check(spec.classify({ method }), message)).toEqual([]);
          expect(spec.check(union, message)).toEqual([]);
        }
      });
    }
  }
  it("URL-mode elicitation", () => {
    expect(spec.check("ElicitRequest", envelope("elicitation/create", urlElicitation, 2))).toEqual([]);
  });
});

describe("errors match their schema definitions", () => {
  it("-32042 URL elicitation required (2025-11-25)", () => {
    const error = createUrlElicitationRequiredError([urlElicitation as ElicitRequestURLParams]);
    expect(spec.check("URLElicitationRequiredError", { jsonrpc: "2.0", id: 1, error: error.toObject() })).toEqual([]);
  });
  it("-32022 unsupported protocol version (2026-07-28)", () => {
    const error = createUnsupportedVersionError("1999-01-01");
    expect(next.check("UnsupportedProtocolVersionError", { jsonrpc: "2.0", id: 1, error: error.toObject() })).toEqual([]);
    expect(error.data).toEqual({ supported: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], requested: "1999-01-01" });
  });
});

describe("server/discover (2026-07-28)", () => {
  it("a DiscoverResult with the cache fields is valid", () => {
    const result: DiscoverResult = {
      supportedVersions: ["2025-11-25"],
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "s", version: "1" },
      instructions: "hi",
      resultType: "complete",
      cacheScope: "public",
      ttlMs: 0,
    };
    expect(next.check("DiscoverResult", result)).toEqual([]);
    expect(next.check("DiscoverRequest", { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } })).toEqual([]);
  });
});

describe("shapes the types refuse are refused by the schema too", () => {
  it("text content without text", () => {
    // @ts-expect-error text is required
    const bad: ContentBlock = { type: "text" };
    expect(spec.check("ContentBlock", bad)).not.toEqual([]);
  });
  it("tool without inputSchema", () => {
    // @ts-expect-error inputSchema is required
    const bad: Tool = { name: "x" };
    expect(spec.check("Tool", bad)).not.toEqual([]);
  });
  it("tool whose input schema is not an object schema", () => {
    // @ts-expect-error inputSchema.type must be "object"
    const bad: Tool = { name: "x", inputSchema: { type: "string" } };
    expect(spec.check("Tool", bad)).not.toEqual([]);
  });
  it("URL elicitation without url", () => {
    // @ts-expect-error url is required in URL mode
    const bad: ElicitRequestURLParams = { mode: "url", message: "m", elicitationId: "e" };
    expect(spec.check("ElicitRequestURLParams", bad)).not.toEqual([]);
  });
  it("a logging level that does not exist", () => {
    const bad = { level: "verbose", data: 1 };
    // @ts-expect-error "verbose" is not a LoggingLevel
    const typed: import("./types/logging").LoggingMessageNotificationParams = bad;
    expect(spec.check("LoggingMessageNotificationParams", typed)).not.toEqual([]);
  });
});
