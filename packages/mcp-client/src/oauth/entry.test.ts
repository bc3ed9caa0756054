import { describe, expect, it } from "vitest";
import * as oauth from "../oauth";
import * as node from "./node";

describe("public surface", () => {
  it("@proto/mcp-client/oauth exports exactly these values", () => {
    expect(Object.keys(oauth).sort()).toEqual(
      [
        "OAuthError",
        "OAuthErrorCode",
        "OAuthFaultCode",
        "createClientCredentialsAuth",
        "createHeadlessRedirect",
        "createJwtBearerAuth",
        "createMemoryTokenStore",
        "createOAuth",
        "followRedirects",
        "isOAuthError",
        "parseBearerChallenge",
        "parseWwwAuthenticate",
        "requestIdJag",
      ].sort(),
    );
  });

  it("@proto/mcp-client/oauth/node exports exactly these values", () => {
    expect(Object.keys(node).sort()).toEqual(["browserCommand", "createFileTokenStore", "createLoopbackRedirect", "openBrowser"]);
  });

  it("lists every error code once, as stable strings", () => {
    const codes = Object.values(oauth.OAuthFaultCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z_]+$/);
    const error = new oauth.OAuthError(oauth.OAuthFaultCode.StateMismatch, "m", { detail: 1 });
    expect(oauth.isOAuthError(error, "STATE_MISMATCH")).toBe(true);
    expect(oauth.isOAuthError(error, "TIMEOUT")).toBe(false);
    expect(oauth.isOAuthError(new Error("x"))).toBe(false);
  });
});
