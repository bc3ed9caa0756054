import { describe, expect, it } from "vitest";
import { bearerChallenge } from "./challenge";
import { protectedResourceMetadata, protectedResourceMetadataPaths, protectedResourceMetadataUrl } from "./metadata";

describe("RFC 9728 metadata", () => {
  it("inserts the well-known path between host and resource path", () => {
    expect(protectedResourceMetadataUrl("https://x.example.com/mcp")).toBe("https://x.example.com/.well-known/oauth-protected-resource/mcp");
    expect(protectedResourceMetadataUrl("https://x.example.com/a/b/")).toBe("https://x.example.com/.well-known/oauth-protected-resource/a/b");
    expect(protectedResourceMetadataUrl("https://x.example.com")).toBe("https://x.example.com/.well-known/oauth-protected-resource");
    expect(protectedResourceMetadataPaths("https://x.example.com/mcp")).toEqual(["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]);
    expect(protectedResourceMetadataPaths("https://x.example.com/")).toEqual(["/.well-known/oauth-protected-resource"]);
  });

  it("builds the document and refuses what RFC 9728 and MCP forbid", () => {
    expect(protectedResourceMetadata({ resource: "https://x.example.com/mcp", authorizationServers: ["https://as.example.com"], resourceName: "X", extra: { custom: 1 } })).toEqual({
      custom: 1,
      resource: "https://x.example.com/mcp",
      authorization_servers: ["https://as.example.com"],
      bearer_methods_supported: ["header"],
      resource_name: "X",
    });
    expect(() => protectedResourceMetadata({ resource: "https://x.example.com/mcp", authorizationServers: [] })).toThrow(/at least one/);
    expect(() => protectedResourceMetadata({ resource: "/mcp", authorizationServers: ["https://as"] })).toThrow(/absolute URL/);
    expect(() => protectedResourceMetadataUrl("https://x.example.com/mcp#frag")).toThrow(/fragment/);
  });
});

describe("bearerChallenge", () => {
  it("formats RFC 6750 parameters as quoted strings, escaping quotes and dropping control characters", () => {
    expect(bearerChallenge({})).toBe("Bearer");
    expect(bearerChallenge({ error: "insufficient_scope", scopes: ["a", "b"], resourceMetadata: "https://x/.well-known/oauth-protected-resource", errorDescription: 'needs "b"\r\nInjected: 1' })).toBe(
      'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource", error_description="needs \\"b\\"Injected: 1"',
    );
  });
});
