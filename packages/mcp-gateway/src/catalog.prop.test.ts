import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildCatalog } from "./catalog";
import type { CatalogChild } from "./catalog";
import { EMPTY_SNAPSHOT } from "./snapshot";

const all = { tools: () => true, prompts: () => true, resources: () => true };
const child = fc.record({
  name: fc.stringMatching(/^[a-z](?:[a-z0-9-]{0,6}[a-z0-9])?$/),
  tools: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 90 }), { maxLength: 8 }),
  uris: fc.uniqueArray(fc.oneof(fc.webUrl(), fc.constantFrom("ui://app/view", "file:///a", "ui://x/y")), { maxLength: 4 }),
});

function toChild(c: { name: string; tools: string[]; uris: string[] }): CatalogChild {
  return {
    name: c.name,
    filters: all,
    snapshot: { ...EMPTY_SNAPSHOT, tools: c.tools.map((name) => ({ name, inputSchema: { type: "object" } })), resources: c.uris.map((uri) => ({ uri, name: uri })) },
  };
}

describe("buildCatalog", () => {
  it("is injective over every child's tools and URIs, and independent of child order", () => {
    fc.assert(
      fc.property(fc.uniqueArray(child, { selector: (c) => c.name, minLength: 1, maxLength: 4 }), (children) => {
        const options = { gateway: "gw", separator: "__", style: "provider" as const };
        const a = buildCatalog(children.map(toChild), options);
        const b = buildCatalog([...children].reverse().map(toChild), options);
        expect(b.tools.map((t) => t.exposed)).toEqual(a.tools.map((t) => t.exposed));
        expect(new Set(a.tools.map((t) => t.exposed)).size).toBe(children.reduce((n, c) => n + c.tools.length, 0));
        expect(new Set(a.resources.map((r) => r.exposed)).size).toBe(children.reduce((n, c) => n + c.uris.length, 0));
        for (const t of a.tools) expect(a.toolByName.get(t.exposed)).toMatchObject({ child: t.child, name: t.name });
      }),
    );
  });
});
