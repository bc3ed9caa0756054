import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { parseTokenResponse } from "./token-endpoint";

describe("parseTokenResponse", () => {
  it("keeps what a Bearer response carries and anchors expires_in", () => {
    expect(parseTokenResponse({ access_token: "a", token_type: "bearer", expires_in: 60, refresh_token: "r", scope: "x y" }, 1_000)).toEqual({
      accessToken: "a",
      tokenType: "Bearer",
      refreshToken: "r",
      expiresAt: 61_000,
      scope: "x y",
    });
  });

  it("uses the requested scope when the server does not say, and accepts numeric strings", () => {
    expect(parseTokenResponse({ access_token: "a", token_type: "Bearer", expires_in: "30" }, 0, "s")).toEqual({ accessToken: "a", tokenType: "Bearer", expiresAt: 30_000, scope: "s" });
  });

  it.each([
    ["not an object", "[]"],
    ["no access token", { token_type: "Bearer" }],
    ["DPoP token", { access_token: "a", token_type: "DPoP" }],
    ["negative expiry", { access_token: "a", token_type: "Bearer", expires_in: -1 }],
    ["bad expiry", { access_token: "a", token_type: "Bearer", expires_in: "soon" }],
    ["bad refresh token", { access_token: "a", token_type: "Bearer", refresh_token: 1 }],
    ["bad scope", { access_token: "a", token_type: "Bearer", scope: ["a"] }],
  ])("refuses %s", (_name, body) => {
    expect(() => parseTokenResponse(typeof body === "string" ? JSON.parse(body) : body, 0)).toThrow(expect.objectContaining({ code: OAuthFaultCode.InvalidTokenResponse }));
  });
});
