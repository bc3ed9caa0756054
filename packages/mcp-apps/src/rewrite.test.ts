import { describe, expect, it } from "vitest";
import type { CallToolResult, ListResourcesResult, ListToolsResult, ReadResourceResult } from "@proto/mcp-protocol";
import {
  createGatewayUriMap,
  dropUiDomain,
  rewriteReadParams,
  rewriteReadResult,
  rewriteResourcesList,
  rewriteToolResult,
  rewriteToolsList,
  rewriteUiMessage,
  rewriteUiParams,
  rewriteUiResult,
} from "./rewrite";

const CHILD = "ui://weather/dashboard";
const GW = "ui://gw/weather/ui%3A%2F%2Fweather%2Fdashboard";
const { toGateway, fromGateway } = createGatewayUriMap("gw", "weather");

describe("message rewriting", () => {
  it("rewrites tools/list links, nested and deprecated flat, and nothing else", () => {
    const list: ListToolsResult = {
      tools: [
        { name: "a", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: CHILD, visibility: ["app"] }, "ui/resourceUri": CHILD, other: CHILD } },
        { name: "b", inputSchema: { type: "object" }, description: CHILD },
      ],
      nextCursor: "c",
    };
    const out = rewriteToolsList(list, toGateway);
    expect(out).toEqual({
      tools: [
        { name: "a", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: GW, visibility: ["app"] }, "ui/resourceUri": GW, other: CHILD } },
        { name: "b", inputSchema: { type: "object" }, description: CHILD },
      ],
      nextCursor: "c",
    });
    expect(out.tools[1]).toBe(list.tools[1]);
    expect(list.tools[0]?._meta).toEqual({ ui: { resourceUri: CHILD, visibility: ["app"] }, "ui/resourceUri": CHILD, other: CHILD });
    expect(rewriteToolsList(out, fromGateway)).toEqual(list);
  });

  it("rewrites resources/list entries, read params and read contents; other schemes pass through", () => {
    const list: ListResourcesResult = { resources: [{ uri: CHILD, name: "d", mimeType: "text/html;profile=mcp-app" }, { uri: "file:///a", name: "a" }] };
    expect(rewriteResourcesList(list, toGateway).resources.map((r) => r.uri)).toEqual([GW, "file:///a"]);
    expect(rewriteReadParams({ uri: GW }, fromGateway)).toEqual({ uri: CHILD });
    const read: ReadResourceResult = { contents: [{ uri: CHILD, mimeType: "text/html;profile=mcp-app", text: "<html></html>", _meta: { ui: { prefersBorder: true } } }] };
    expect(rewriteReadResult(read, toGateway)).toEqual({ contents: [{ ...read.contents[0], uri: GW }] });
  });

  it("rewrites resource links and embedded resources in tool results", () => {
    const result: CallToolResult = {
      content: [
        { type: "text", text: CHILD },
        { type: "resource_link", uri: CHILD, name: "d" },
        { type: "resource", resource: { uri: CHILD, text: "<html></html>" } },
      ],
      structuredContent: { uri: CHILD },
    };
    expect(rewriteToolResult(result, toGateway)).toEqual({
      content: [
        { type: "text", text: CHILD },
        { type: "resource_link", uri: GW, name: "d" },
        { type: "resource", resource: { uri: GW, text: "<html></html>" } },
      ],
      structuredContent: { uri: CHILD },
    });
  });

  it("rewrites the result's own _meta link (nested and flat), other _meta kept", () => {
    const result: CallToolResult = { content: [], _meta: { ui: { resourceUri: CHILD }, "ui/resourceUri": CHILD, other: CHILD } };
    expect(rewriteToolResult(result, toGateway)._meta).toEqual({ ui: { resourceUri: GW }, "ui/resourceUri": GW, other: CHILD });
  });

  it("passes a tool result with nothing to rewrite on as it is (the same objects), whatever its text and _meta say", () => {
    const plain: CallToolResult = { content: [{ type: "text", text: CHILD }], structuredContent: { uri: CHILD }, _meta: { "io.modelcontextprotocol/serverInfo": { name: "c", version: "1" } } };
    expect(rewriteToolResult(plain, toGateway)).toBe(plain);
    expect(dropUiDomain(plain)).toBe(plain);
    // A link among other blocks: only its block is new, the others are the same objects.
    const mixed: CallToolResult = { content: [{ type: "text", text: "a" }, { type: "resource_link", uri: CHILD, name: "d" }, { type: "text", text: "b" }] };
    const out = rewriteToolResult(mixed, toGateway);
    expect(out.content[0]).toBe(mixed.content[0]);
    expect(out.content[1]).toEqual({ type: "resource_link", uri: GW, name: "d" });
    expect(out.content[2]).toBe(mixed.content[2]);
    expect(mixed.content[1]).toEqual({ type: "resource_link", uri: CHILD, name: "d" });
  });

  it("dispatches by method, for results, params and whole JSON-RPC messages", () => {
    expect(rewriteUiResult("resources/read", { contents: [{ uri: CHILD, text: "" }] }, toGateway)).toEqual({ contents: [{ uri: GW, text: "" }] });
    expect(rewriteUiResult("prompts/list", { prompts: [{ uri: CHILD }] }, toGateway)).toEqual({ prompts: [{ uri: CHILD }] });
    expect(rewriteUiParams("resources/subscribe", { uri: GW }, fromGateway)).toEqual({ uri: CHILD });
    expect(rewriteUiParams("tools/call", { uri: GW }, fromGateway)).toEqual({ uri: GW });
    expect(rewriteUiMessage({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: GW } }, fromGateway)).toEqual({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: CHILD } });
    expect(rewriteUiMessage({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: CHILD } }, toGateway)).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: GW } });
    expect(rewriteUiMessage({ jsonrpc: "2.0", id: 2, result: { resources: [{ uri: CHILD, name: "d" }] } }, toGateway, "resources/list")).toEqual({ jsonrpc: "2.0", id: 2, result: { resources: [{ uri: GW, name: "d" }] } });
    const error = { jsonrpc: "2.0", id: 3, error: { code: -32002, message: "x", data: { uri: CHILD } } };
    expect(rewriteUiMessage(error, toGateway, "resources/read")).toBe(error);
  });

  it("passes malformed shapes through untouched", () => {
    for (const junk of [null, 7, "x", [], { tools: "no" }, { tools: [null, 1, { _meta: { ui: "x" } }] }, { contents: [{ uri: 5 }] }]) {
      expect(rewriteUiResult("tools/list", junk, toGateway)).toBe(junk);
      expect(rewriteUiResult("resources/read", junk, toGateway)).toBe(junk);
      expect(rewriteUiResult("tools/call", junk, toGateway)).toBe(junk);
    }
  });

  it("refuses another child's or gateway's URI when rewriting towards a child", () => {
    const other = createGatewayUriMap("gw", "news").toGateway("ui://news/feed");
    expect(() => fromGateway(other)).toThrow(/belongs to child "news" of gateway "gw", not "weather" of "gw"; route it with fromGatewayUri\(\) first/);
    expect(() => fromGateway("ui://weather/dashboard")).toThrow(/is not a gateway URI/);
    expect(fromGateway("file:///x")).toBe("file:///x");
    expect(() => createGatewayUriMap("GW", "weather")).toThrow(/gateway name/);
  });

  it("drops _meta.ui.domain from list entries, read contents and embedded resources, keeping the rest", () => {
    const ui = { csp: { connectDomains: ["https://a.example"] }, domain: "abc.host.example", prefersBorder: true };
    const kept = { csp: { connectDomains: ["https://a.example"] }, prefersBorder: true };
    expect(dropUiDomain({ resources: [{ uri: CHILD, name: "d", _meta: { ui, x: 1 } }] })).toEqual({ resources: [{ uri: CHILD, name: "d", _meta: { ui: kept, x: 1 } }] });
    expect(dropUiDomain({ contents: [{ uri: CHILD, text: "", _meta: { ui } }] })).toEqual({ contents: [{ uri: CHILD, text: "", _meta: { ui: kept } }] });
    const call: CallToolResult = { content: [{ type: "resource", resource: { uri: CHILD, text: "", _meta: { ui } } }] };
    expect(dropUiDomain(call)).toEqual({ content: [{ type: "resource", resource: { uri: CHILD, text: "", _meta: { ui: kept } } }] });
    const without = { contents: [{ uri: CHILD, text: "", _meta: { ui: kept } }] };
    expect(dropUiDomain(without)).toBe(without);
    expect(ui.domain).toBe("abc.host.example");
  });
});
