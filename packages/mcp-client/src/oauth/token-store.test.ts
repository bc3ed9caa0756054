import { describe, expect, it } from "vitest";
import { createMemoryTokenStore, parseStoredAuthorization, type StoredAuthorization } from "./token-store";

const value: StoredAuthorization = {
  tokens: {
    accessToken: "a",
    tokenType: "Bearer",
    refreshToken: "r",
    expiresAt: 5,
    issuer: "https://as",
    tokenEndpoint: "https://as/token",
    resource: "https://mcp",
    clientId: "c",
    authMethod: "none",
    issuedAt: 1,
  },
  clients: { "https://as": { clientId: "c", redirectUris: ["http://127.0.0.1/cb"], tokenEndpointAuthMethod: "none" } },
};

describe("memory token store", () => {
  it("saves, loads copies, and deletes", async () => {
    const store = createMemoryTokenStore();
    expect(await store.load("k")).toBeUndefined();
    await store.save("k", value);
    const loaded = await store.load("k");
    expect(loaded).toEqual(value);
    expect(loaded).not.toBe(value);
    await store.delete("k");
    expect(await store.load("k")).toBeUndefined();
  });
});

describe("parseStoredAuthorization", () => {
  it("round-trips a valid value", () => {
    expect(parseStoredAuthorization(JSON.parse(JSON.stringify(value)))).toEqual(value);
  });

  it("drops malformed tokens and clients instead of trusting them", () => {
    expect(parseStoredAuthorization(null)).toBeUndefined();
    expect(parseStoredAuthorization({ tokens: { ...value.tokens, tokenType: "DPoP" } })).toEqual({});
    expect(parseStoredAuthorization({ tokens: { ...value.tokens, authMethod: "magic" } })).toEqual({});
    expect(parseStoredAuthorization({ tokens: { ...value.tokens, expiresAt: "soon" } })).toEqual({});
    expect(parseStoredAuthorization({ clients: { x: { clientId: "c", redirectUris: [1] }, y: { clientId: "d", redirectUris: [] } } })).toEqual({
      clients: { y: { clientId: "d", redirectUris: [] } },
    });
  });
});
