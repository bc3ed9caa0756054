import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import {
  assertSecureUrl,
  authorizationServerMetadataUrls,
  canonicalResource,
  isLoopbackHost,
  parseUrl,
  protectedResourceMetadataUrls,
  resourceMatches,
  sameIssuer,
} from "./urls";

describe("https rule", () => {
  it("knows loopback hosts", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.255.0.9", "[::1]", "::1"]) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ["localhost.evil.com", "128.0.0.1", "127.0.0.1.nip.io", "0.0.0.0", "example.com"]) expect(isLoopbackHost(host)).toBe(false);
  });

  it("allows https anywhere and http only on loopback", () => {
    expect(() => assertSecureUrl(new URL("https://auth.example/token"), "x")).not.toThrow();
    expect(() => assertSecureUrl(new URL("http://127.0.0.1:9/token"), "x")).not.toThrow();
    expect(() => assertSecureUrl(new URL("http://[::1]:9/token"), "x")).not.toThrow();
    expect(() => assertSecureUrl(new URL("http://auth.example/token"), "the token endpoint")).toThrow(
      expect.objectContaining({ code: OAuthFaultCode.InsecureEndpoint, message: expect.stringContaining("the token endpoint") }),
    );
    expect(() => assertSecureUrl(new URL("http://auth.example/token"), "x", true)).not.toThrow();
  });

  it("refuses other schemes even with the escape hatch", () => {
    for (const url of ["javascript:alert(1)", "file:///etc/passwd", "ftp://x/y"]) {
      expect(() => assertSecureUrl(new URL(url), "x", true)).toThrow(expect.objectContaining({ code: OAuthFaultCode.InsecureEndpoint }));
    }
  });

  it("parses URLs or says what was wrong", () => {
    expect(parseUrl("https://a/b", "x").href).toBe("https://a/b");
    expect(() => parseUrl("not a url", "The token_endpoint")).toThrow(expect.objectContaining({ code: OAuthFaultCode.InvalidMetadata }));
    expect(() => parseUrl(42, "The token_endpoint")).toThrow(/missing or not a string/);
  });
});

describe("canonical resource and matching", () => {
  it("lowercases scheme and host, drops fragments and a bare trailing slash", () => {
    expect(canonicalResource(new URL("HTTPS://MCP.Example.com/"))).toBe("https://mcp.example.com");
    expect(canonicalResource(new URL("https://mcp.example.com:8443"))).toBe("https://mcp.example.com:8443");
    expect(canonicalResource(new URL("https://mcp.example.com/server/mcp#frag"))).toBe("https://mcp.example.com/server/mcp");
  });

  it("matches the same resource or a parent path on the same origin", () => {
    const server = new URL("https://mcp.example.com/public/mcp");
    expect(resourceMatches("https://mcp.example.com/public/mcp", server)).toBe(true);
    expect(resourceMatches("https://mcp.example.com/public/mcp/", server)).toBe(true);
    expect(resourceMatches("https://mcp.example.com/public", server)).toBe(true);
    expect(resourceMatches("https://mcp.example.com", server)).toBe(true);
    expect(resourceMatches("https://MCP.example.com/public/mcp", server)).toBe(true);
  });

  it("refuses other origins, sibling paths and garbage", () => {
    const server = new URL("https://mcp.example.com/public/mcp");
    expect(resourceMatches("https://evil.example.com/public/mcp", server)).toBe(false);
    expect(resourceMatches("http://mcp.example.com/public/mcp", server)).toBe(false);
    expect(resourceMatches("https://mcp.example.com:444/public/mcp", server)).toBe(false);
    expect(resourceMatches("https://mcp.example.com/pub", server)).toBe(false);
    expect(resourceMatches("https://mcp.example.com/public/mcp/deeper", server)).toBe(false);
    expect(resourceMatches("https://mcp.example.com/public/mcp#x", server)).toBe(false);
    expect(resourceMatches("not a url", server)).toBe(false);
  });

  it("compares issuers modulo one trailing slash", () => {
    expect(sameIssuer("https://a.example/", "https://a.example")).toBe(true);
    expect(sameIssuer("https://a.example/t1", "https://a.example/t2")).toBe(false);
  });
});

describe("well-known URLs", () => {
  it("tries the path-based Protected Resource Metadata first, then the root", () => {
    expect(protectedResourceMetadataUrls(new URL("https://example.com/public/mcp")).map(String)).toEqual([
      "https://example.com/.well-known/oauth-protected-resource/public/mcp",
      "https://example.com/.well-known/oauth-protected-resource",
    ]);
    expect(protectedResourceMetadataUrls(new URL("https://example.com/mcp/?t=1")).map(String)).toEqual([
      "https://example.com/.well-known/oauth-protected-resource/mcp?t=1",
      "https://example.com/.well-known/oauth-protected-resource",
    ]);
    expect(protectedResourceMetadataUrls(new URL("https://example.com")).map(String)).toEqual(["https://example.com/.well-known/oauth-protected-resource"]);
  });

  it("follows the MCP 2025-11-25 order for issuers with and without a path", () => {
    expect(authorizationServerMetadataUrls(new URL("https://auth.example.com/tenant1/")).map((c) => `${c.kind} ${c.url.href}`)).toEqual([
      "oauth https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "openid https://auth.example.com/.well-known/openid-configuration/tenant1",
      "openid https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
    expect(authorizationServerMetadataUrls(new URL("https://auth.example.com")).map((c) => c.url.href)).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });
});
