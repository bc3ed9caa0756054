import { describe, expect, it } from "vitest";
import { coversScopes, selectScope, unionScopes } from "./scopes";

describe("scope selection (MCP 2025-11-25)", () => {
  const base = { offlineAccess: true };
  it("takes the challenge first, then the configured scope, then scopes_supported, else none", () => {
    expect(selectScope({ ...base, challenge: ["a"], configured: "b", resourceScopes: ["c"] })).toBe("a");
    expect(selectScope({ ...base, configured: " b  d ", resourceScopes: ["c"] })).toBe("b d");
    expect(selectScope({ ...base, resourceScopes: ["c", "e"] })).toBe("c e");
    expect(selectScope({ ...base, challenge: [], resourceScopes: [] })).toBeUndefined();
  });

  it("adds offline_access only when the authorization server lists it and a scope is sent", () => {
    expect(selectScope({ ...base, resourceScopes: ["a"], serverScopes: ["a", "offline_access"] })).toBe("a offline_access");
    expect(selectScope({ offlineAccess: false, resourceScopes: ["a"], serverScopes: ["offline_access"] })).toBe("a");
    expect(selectScope({ ...base, resourceScopes: ["a"], serverScopes: ["a"] })).toBe("a");
    expect(selectScope({ ...base, serverScopes: ["offline_access"] })).toBeUndefined();
    expect(selectScope({ ...base, challenge: ["offline_access"], serverScopes: ["offline_access"] })).toBe("offline_access");
  });

  it("unions for step-up and checks coverage", () => {
    expect(unionScopes("a b", ["b", "c"])).toBe("a b c");
    expect(unionScopes(undefined, ["c"])).toBe("c");
    expect(coversScopes("a b", ["b"])).toBe(true);
    expect(coversScopes("a", ["a", "b"])).toBe(false);
    expect(coversScopes(undefined, [])).toBe(true);
  });
});
