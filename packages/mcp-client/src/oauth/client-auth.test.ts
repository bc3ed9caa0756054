import { describe, expect, it } from "vitest";
import { applyClientAuth, checkSigningAlgorithm, chooseAuthMethod, type KeyCache } from "./client-auth";
import { OAuthFaultCode } from "./errors";

describe("chooseAuthMethod", () => {
  it("uses the method the server assigned or the owner forced", () => {
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s", method: "client_secret_post" }, ["client_secret_basic"])).toBe("client_secret_post");
  });

  it("prefers client_secret_basic for secrets (the RFC 8414 default), then post, then none", () => {
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, undefined)).toBe("client_secret_basic");
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["client_secret_post", "client_secret_basic"])).toBe("client_secret_basic");
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["client_secret_post"])).toBe("client_secret_post");
    expect(chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["none"])).toBe("none");
    expect(() => chooseAuthMethod({ clientId: "c", clientSecret: "s" }, ["private_key_jwt"])).toThrow(
      expect.objectContaining({ code: OAuthFaultCode.AuthMethodUnsupported }),
    );
  });

  it("uses private_key_jwt for keys when allowed, none for public clients", () => {
    const signingKey = { key: "pem" };
    expect(chooseAuthMethod({ clientId: "c", signingKey }, undefined)).toBe("private_key_jwt");
    expect(() => chooseAuthMethod({ clientId: "c", signingKey }, ["client_secret_basic"])).toThrow(expect.objectContaining({ code: OAuthFaultCode.AuthMethodUnsupported }));
    expect(chooseAuthMethod({ clientId: "c" }, ["client_secret_basic"])).toBe("none");
  });

  it("checks the signing algorithm against the advertised list", () => {
    expect(() => checkSigningAlgorithm({ clientId: "c", signingKey: { key: "k", algorithm: "RS256" } }, ["ES256"])).toThrow(/RS256/);
    expect(() => checkSigningAlgorithm({ clientId: "c", signingKey: { key: "k" } }, ["ES256"])).not.toThrow();
    expect(() => checkSigningAlgorithm({ clientId: "c" }, ["ES256"])).not.toThrow();
  });
});

describe("applyClientAuth", () => {
  const context = { audience: "https://as", now: 0, keys: new Map() as KeyCache };

  it("form-encodes client_secret_basic credentials (RFC 6749 §2.3.1)", async () => {
    const form = new URLSearchParams();
    const headers: Record<string, string> = {};
    await applyClientAuth("client_secret_basic", { clientId: "my client", clientSecret: "p:ss/wörd" }, form, headers, context);
    const decoded = Buffer.from((headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString("utf8");
    expect(decoded).toBe("my+client:p%3Ass%2Fw%C3%B6rd");
    expect(form.has("client_secret")).toBe(false);
  });

  it("puts the secret in the body for client_secret_post and only the id for none", async () => {
    const post = new URLSearchParams();
    await applyClientAuth("client_secret_post", { clientId: "c", clientSecret: "s" }, post, {}, context);
    expect(Object.fromEntries(post)).toEqual({ client_id: "c", client_secret: "s" });
    const none = new URLSearchParams();
    await applyClientAuth("none", { clientId: "c", clientSecret: "s" }, none, {}, context);
    expect(Object.fromEntries(none)).toEqual({ client_id: "c" });
  });

  it("refuses a secret method without a secret", async () => {
    await expect(applyClientAuth("client_secret_basic", { clientId: "c" }, new URLSearchParams(), {}, context)).rejects.toMatchObject({
      code: OAuthFaultCode.AuthMethodUnsupported,
    });
    await expect(applyClientAuth("private_key_jwt", { clientId: "c" }, new URLSearchParams(), {}, context)).rejects.toMatchObject({
      code: OAuthFaultCode.AuthMethodUnsupported,
    });
  });

  it("adds a client assertion and imports the key once", async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
    const signingKey = { key: pair.privateKey };
    const keys: KeyCache = new Map();
    for (let i = 0; i < 2; i++) {
      const form = new URLSearchParams();
      await applyClientAuth("private_key_jwt", { clientId: "c", signingKey }, form, {}, { ...context, keys });
      expect(form.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      expect(form.get("client_assertion")?.split(".")).toHaveLength(3);
    }
    expect(keys.size).toBe(1);
  });
});
