import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidToolName } from "@proto/mcp-client";
import { exposeNames } from "./naming";

const child = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/);
// Tool names as hostile children send them: any characters, long, colliding after sanitising.
const toolName = fc.oneof(fc.string({ minLength: 1, maxLength: 150 }), fc.stringMatching(/^[a-z._ -]{1,80}$/), fc.constantFrom("a.b", "a_b", "a b", "a/b", "x".repeat(70)));
const names = fc.uniqueArray(toolName, { minLength: 1, maxLength: 30 });

describe("exposeNames", () => {
  it("always gives provider-valid names (1-64 of A-Za-z0-9_-), distinct, prefixed by the child", () => {
    fc.assert(
      fc.property(child, names, (c, list) => {
        const map = exposeNames(c, list, "__", "provider");
        const exposed = [...map.values()];
        expect(exposed.every((n) => isValidToolName(n, 64, "provider") && n.startsWith(`${c}__`))).toBe(true);
        expect(new Set(exposed).size).toBe(list.length);
        expect(map.size).toBe(list.length);
      }),
    );
  });

  it("does not depend on the order of the names, and round-trips through the table", () => {
    fc.assert(
      fc.property(child, names, fc.infiniteStream(fc.nat()), (c, list, seeds) => {
        const shuffled = [...list].sort(() => (seeds.next().value % 3) - 1);
        const a = exposeNames(c, list, "__", "provider");
        const b = exposeNames(c, shuffled, "__", "provider");
        expect([...b.entries()].sort()).toEqual([...a.entries()].sort());
        const back = new Map([...a].map(([original, exposed]) => [exposed, original]));
        for (const name of list) expect(back.get(a.get(name) as string)).toBe(name);
      }),
    );
  });

  it("never collides across children: the child prefix is always kept", () => {
    fc.assert(
      fc.property(fc.uniqueArray(child, { minLength: 2, maxLength: 5 }), names, (children, list) => {
        const all = children.flatMap((c) => [...exposeNames(c, list, "__", "provider").values()]);
        expect(new Set(all).size).toBe(all.length);
      }),
    );
  });

  it("keeps valid names as <child>__<name>, and the reference's dotted form in the spec style", () => {
    expect(exposeNames("taskman", ["add", "list"], "__", "provider")).toEqual(new Map([["add", "taskman__add"], ["list", "taskman__list"]]));
    expect(exposeNames("taskman", ["add"], ".", "spec").get("add")).toBe("taskman.add");
    const collided = exposeNames("a", ["x.y", "x_y"], "__", "provider");
    expect(collided.get("x_y")).toBe("a__x_y");
    expect(collided.get("x.y")).toMatch(/^a__x_y_[0-9a-f]{8}$/);
  });
});
