/**
 * In memory, both eras to the child: form and URL elicitation and roots relayed from children to
 * the upstream client (and refused at once without the capability); a view read from a child
 * that fails carries the repair data; duplicates within one child (first wins) and broken links
 * are reported to the gateway's logger.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { createGateway } from "./gateway";
import { inMemory, inMemory2025, UI, upstream } from "./testing/children";
import { buildCatalog } from "./catalog";
import { EMPTY_SNAPSHOT } from "./snapshot";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

function asker(): ReturnType<typeof createServer> {
  const server = createServer({ name: "asker", version: "1.0.0" });
  server.tool({ name: "form", inputSchema: { type: "object" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return `form ${r.action} ${String(r.content?.name)}`;
  });
  server.tool({ name: "consent", inputSchema: { type: "object" } }, async (_a, ctx) => `url ${(await ctx.elicitUrl({ message: "Consent", url: "https://example.com/consent" })).action}`);
  server.tool({ name: "roots", inputSchema: { type: "object" } }, async (_a, ctx) => `roots ${(await ctx.listRoots()).map((r) => r.uri).join(",")}`);
  return server;
}

const text = (result: { content: readonly unknown[] }) => (result.content[0] as { text?: string }).text;

describe.each([
  ["2026-07-28", inMemory],
  ["2025-11-25", inMemory2025],
] as const)("relays from a %s child", (_era, transport) => {
  it("form and URL elicitation and roots reach the upstream client and their answers the child", async () => {
    const gateway = createGateway({ name: "gw", children: { a: { transport: transport(asker()) } } });
    open.push(gateway);
    const seen: string[] = [];
    const host = await upstream(gateway, {
      elicitation: {
        form: (params) => (seen.push(`form:${params.message}`), { action: "accept", content: { name: "Ada" } }),
        url: (params) => (seen.push(`url:${params.url}`), { action: "accept" }),
      },
      roots: [{ uri: "file:///work" }],
    });
    open.push(host);
    expect(text(await host.callTool("a__form"))).toBe("form accept Ada");
    expect(text(await host.callTool("a__consent"))).toBe("url accept");
    expect(text(await host.callTool("a__roots"))).toBe("roots file:///work");
    expect(seen).toEqual(["form:Name?", "url:https://example.com/consent"]);
  });

  it("refuses at once when the upstream client declared none of them", async () => {
    const gateway = createGateway({ name: "gw", children: { a: { transport: transport(asker()) } } });
    open.push(gateway);
    const host = await upstream(gateway);
    open.push(host);
    for (const [tool, capability] of [["a__form", "elicitation"], ["a__consent", "elicitation"], ["a__roots", "roots"]] as const) {
      // A 2026-07-28 child asks in an input_required round, whose refusal ends the forwarded call; a 2025-11-25
      // child's handler gets the -32601 and reports it as its tool error.
      const outcome = await host.callTool(tool).then((r) => text(r), (e: unknown) => e as { code?: number; message?: string });
      const message = typeof outcome === "string" ? outcome : outcome?.message;
      if (typeof outcome !== "string") expect(outcome?.code).toBe(-32601);
      expect(message).toContain(`did not declare "${capability}"`);
    }
  });
});

describe("view failures and catalog warnings", () => {
  it("answers a view read that the child fails with M-UI-004 and the child, reason, URI and repair", async () => {
    const child = createServer({ name: "v", version: "1.0.0" });
    child.tool({ name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://app/view" } } }, () => "shown");
    let fail = false;
    child.resource({ uri: "ui://app/view", name: "view", mimeType: "text/html;profile=mcp-app" }, () => {
      if (fail) throw new Error("boom");
      return { text: "<html></html>", mimeType: "text/html;profile=mcp-app" };
    });
    const make = inMemory(child);
    const transports: { close(): Promise<void> }[] = [];
    let down = false;
    const factory = async () => {
      if (down) throw new Error("connect ECONNREFUSED (test)");
      const t = await make();
      transports.push(t);
      return t;
    };
    const gateway = createGateway({ name: "gw", children: { v: { transport: factory } }, restart: { initialDelayMs: 10, maxDelayMs: 10 } });
    open.push(gateway);
    const host = await upstream(gateway, { extensions: UI });
    open.push(host);
    const view = "ui://gw/v/ui%3A%2F%2Fapp%2Fview";
    expect((await host.readResource(view)).contents[0]).toMatchObject({ uri: view });
    fail = true;
    // A handler that throws is the child's own JSON-RPC error, passed on as it is.
    await expect(host.readResource(view)).rejects.toMatchObject({ code: -32603 });
    // The child going away and not coming back is the gateway's failure, with the repair data.
    fail = false;
    down = true;
    for (const t of transports.splice(0)) await t.close();
    const error = await host.readResource(view).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32603, data: { code: "M-UI-004", child: "v", uri: view, reason: expect.stringMatching(/^(disconnect|unavailable)$/) } });
    expect(typeof (error as { data: { repair?: unknown } }).data.repair).toBe("string");
  });

  it("keeps the first of a name a child lists twice, and warns of it and of a broken link", () => {
    const snapshot = {
      ...EMPTY_SNAPSHOT,
      tools: [
        { name: "dup", description: "first", inputSchema: { type: "object" as const } },
        { name: "dup", description: "second", inputSchema: { type: "object" as const } },
        { name: "linked", inputSchema: { type: "object" as const }, _meta: { ui: { resourceUri: "ui://app/missing", visibility: ["app"] } } },
      ],
      prompts: [{ name: "p" }, { name: "p", description: "again" }],
    };
    const all = { tools: () => true, prompts: () => true, resources: () => true };
    const catalog = buildCatalog([{ name: "c", filters: all, snapshot }], { gateway: "gw", separator: "__", style: "provider" });
    expect(catalog.tools.filter((t) => t.name === "dup").map((t) => t.tool.description)).toEqual(["first"]);
    expect(catalog.prompts.map((p) => p.prompt.description)).toEqual([undefined]);
    expect(catalog.warnings).toEqual([
      'child "c" lists tool "dup" twice; the first one is used',
      'tool "linked" of child "c" links to ui://app/missing, which the child does not serve; the link is removed',
      'child "c" lists prompt "p" twice; the first one is used',
    ]);
    // The broken link goes; the visibility stays (an app-only tool never becomes model-visible).
    expect(catalog.tools.find((t) => t.name === "linked")).toMatchObject({ appOnly: true, plain: undefined, tool: { _meta: { ui: { visibility: ["app"] } } } });
  });
});
