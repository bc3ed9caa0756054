import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyUri, childName, gatewayName } from "./arbitraries.fixture";
import { isUiUri } from "./constants";
import { fromGatewayUri } from "./gateway-uri";
import { createGatewayUriMap, rewriteUiMessage, rewriteUiParams, rewriteUiResult } from "./rewrite";

const extra = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const toolMeta = fc.record({ ui: fc.oneof(fc.record({ resourceUri: anyUri, visibility: fc.constant(["app"]) }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 1 })), "ui/resourceUri": anyUri }, { requiredKeys: [] });
const tool = fc.record({ name: fc.string({ maxLength: 8 }), inputSchema: fc.constant({ type: "object" }), _meta: toolMeta }, { requiredKeys: ["name", "inputSchema"] });
const contents = fc.record({ uri: anyUri, text: fc.string({ maxLength: 10 }), _meta: extra }, { requiredKeys: ["uri", "text"] });
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: anyUri }),
  fc.record({ type: fc.constant("resource_link"), uri: anyUri, name: fc.string({ maxLength: 5 }) }),
  fc.record({ type: fc.constant("resource"), resource: contents }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A result or params of each rewritten method, with unrelated members and odd shapes mixed in. */
const message = fc.oneof(
  fc.tuple(fc.constant("tools/list"), fc.record({ tools: fc.array(fc.oneof(tool, fc.jsonValue({ maxDepth: 1 })), { maxLength: 4 }), nextCursor: fc.string() }, { requiredKeys: ["tools"] })),
  fc.tuple(fc.constant("resources/list"), fc.record({ resources: fc.array(fc.record({ uri: anyUri, name: fc.string({ maxLength: 5 }), _meta: extra }, { requiredKeys: ["uri", "name"] }), { maxLength: 4 }) })),
  fc.tuple(fc.constant("resources/read"), fc.record({ contents: fc.array(contents, { maxLength: 3 }) })),
  fc.tuple(fc.constant("tools/call"), fc.record({ content: fc.array(block, { maxLength: 4 }), structuredContent: extra, isError: fc.boolean() }, { requiredKeys: ["content"] })),
  fc.tuple(fc.constantFrom("prompts/list", "initialize"), fc.jsonValue({ maxDepth: 3 })),
);

/** Every URI in a slot the rewriting touches. */
function slots(method: string, result: unknown): string[] {
  const r = result as Record<string, unknown[] | undefined>;
  const strings = (xs: unknown[]) => xs.filter((x): x is string => typeof x === "string");
  const get = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined), o);
  if (method === "tools/list") return strings((r.tools ?? []).flatMap((t) => [get(t, "_meta", "ui", "resourceUri"), get(t, "_meta", "ui/resourceUri")]));
  if (method === "resources/list") return strings((r.resources ?? []).map((x) => get(x, "uri")));
  if (method === "resources/read") return strings((r.contents ?? []).map((x) => get(x, "uri")));
  if (method === "tools/call") return strings((r.content ?? []).map((b) => (get(b, "type") === "resource_link" ? get(b, "uri") : get(b, "type") === "resource" ? get(b, "resource", "uri") : undefined)));
  return [];
}

describe("message rewriting properties", () => {
  it("child to gateway and back is the identity, and never mutates the input", () => {
    fc.assert(
      fc.property(gatewayName, childName, message, (gateway, child, [method, result]) => {
        const map = createGatewayUriMap(gateway, child);
        const before = structuredClone(result);
        const there = rewriteUiResult(method, result, map.toGateway);
        expect(rewriteUiResult(method, there, map.fromGateway)).toEqual(before);
        expect(result).toEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  it("after rewriting, every ui:// URI in a rewritten slot is this child's gateway URI", () => {
    fc.assert(
      fc.property(gatewayName, childName, message, (gateway, child, [method, result]) => {
        const there = rewriteUiResult(method, result, createGatewayUriMap(gateway, child).toGateway);
        for (const uri of slots(method, there).filter(isUiUri)) expect(fromGatewayUri(uri)).toMatchObject({ gateway, child });
      }),
      { numRuns: 1000 },
    );
  });

  it("read requests from the host and back are the identity, as whole JSON-RPC messages", () => {
    fc.assert(
      fc.property(gatewayName, childName, anyUri, fc.constantFrom("resources/read", "resources/subscribe", "resources/unsubscribe"), (gateway, child, uri, method) => {
        const map = createGatewayUriMap(gateway, child);
        const request = { jsonrpc: "2.0", id: 1, method, params: { uri: map.toGateway(uri) } };
        const down = rewriteUiMessage(request, map.fromGateway);
        expect(down.params).toEqual({ uri });
        expect(rewriteUiMessage(down, map.toGateway)).toEqual(request);
        expect(rewriteUiParams(method, rewriteUiParams(method, { uri }, map.toGateway), map.fromGateway)).toEqual({ uri });
      }),
    );
  });
});
