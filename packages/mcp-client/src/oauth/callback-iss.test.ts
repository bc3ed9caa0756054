import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { readCallback } from "./grants";
import type { AuthorizationServerMetadata } from "./metadata";

/** RFC 9207 `iss` in the authorization response: a simple string comparison, no normalisation. */
const REDIRECT = "http://127.0.0.1:9/callback";
const metadata = (issuer: string, required = false): AuthorizationServerMetadata =>
  ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, response_types_supported: ["code"], ...(required ? { authorization_response_iss_parameter_supported: true } : {}) }) as AuthorizationServerMetadata;
const back = (query: Record<string, string>): URL => new URL(`${REDIRECT}?${new URLSearchParams({ state: "st", code: "c0de", ...query })}`);

describe("the iss of the authorization response (RFC 9207)", () => {
  it("accepts the exact issuer, and no iss where the server does not announce one", () => {
    expect(readCallback(back({ iss: "https://as.example.com/tenant" }), REDIRECT, "st", metadata("https://as.example.com/tenant"))).toBe("c0de");
    expect(readCallback(back({}), REDIRECT, "st", metadata("https://as.example.com"))).toBe("c0de");
  });

  for (const [issuer, iss] of [
    ["https://as.example.com", "https://as.example.com/"],
    ["https://as.example.com/", "https://as.example.com"],
    ["https://as.example.com", "https://AS.example.com"],
    ["https://as.example.com", "https://as.example.com:443"],
    ["https://as.example.com/tenant", "https://as.example.com/Tenant"],
  ] as const) {
    it(`refuses ${iss} for issuer ${issuer} (no trailing-slash, case or port folding)`, () => {
      expect(() => readCallback(back({ iss }), REDIRECT, "st", metadata(issuer))).toThrow(expect.objectContaining({ code: OAuthFaultCode.IssuerMismatch }));
    });
  }

  it("refuses a response without iss when the server announced it", () => {
    expect(() => readCallback(back({}), REDIRECT, "st", metadata("https://as.example.com", true))).toThrow(expect.objectContaining({ code: OAuthFaultCode.IssuerMismatch }));
  });
});
