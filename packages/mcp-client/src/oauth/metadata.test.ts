import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { listAllows, parseAuthorizationServerMetadata, parseProtectedResourceMetadata } from "./metadata";

describe("metadata validation", () => {
  it("accepts valid documents and keeps unknown members", () => {
    expect(parseProtectedResourceMetadata({ resource: "https://r", authorization_servers: ["https://a"], x: 1 }, "u")).toMatchObject({ x: 1 });
    expect(parseAuthorizationServerMetadata({ issuer: "https://a", token_endpoint: "https://a/t", code_challenge_methods_supported: ["S256"] }, "u").issuer).toBe("https://a");
  });

  it.each([
    [null],
    [[]],
    [{}],
    [{ resource: "" }],
    [{ resource: "https://r", authorization_servers: "https://a" }],
    [{ resource: "https://r", scopes_supported: [1] }],
  ])("refuses Protected Resource Metadata %j", (doc) => {
    expect(() => parseProtectedResourceMetadata(doc, "u")).toThrow(expect.objectContaining({ code: OAuthFaultCode.InvalidMetadata }));
  });

  it.each([
    [{ token_endpoint: "https://a/t" }],
    [{ issuer: "https://a" }],
    [{ issuer: "https://a", token_endpoint: "https://a/t", authorization_endpoint: 3 }],
    [{ issuer: "https://a", token_endpoint: "https://a/t", grant_types_supported: "authorization_code" }],
  ])("refuses authorization server metadata %j", (doc) => {
    expect(() => parseAuthorizationServerMetadata(doc, "u")).toThrow(expect.objectContaining({ code: OAuthFaultCode.InvalidMetadata }));
  });

  it("treats an absent list as allowing anything", () => {
    expect(listAllows(undefined, "x")).toBe(true);
    expect(listAllows(["y"], "x")).toBe(false);
  });
});
