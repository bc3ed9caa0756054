import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { base64, base64Url, base64Utf8, createPkce, randomToken } from "./pkce";

describe("PKCE S256", () => {
  it("derives the challenge as BASE64URL(SHA-256(verifier))", async () => {
    const pkce = await createPkce();
    expect(pkce.method).toBe("S256");
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pkce.challenge).toBe(createHash("sha256").update(pkce.verifier).digest("base64url"));
  });

  it("never repeats a verifier or a state", async () => {
    const verifiers = new Set(await Promise.all(Array.from({ length: 50 }, async () => (await createPkce()).verifier)));
    expect(verifiers.size).toBe(50);
    expect(new Set(Array.from({ length: 50 }, () => randomToken())).size).toBe(50);
  });

  it("encodes base64 and base64url like Node does", () => {
    const bytes = new Uint8Array(Array.from({ length: 200_000 }, (_, i) => (i * 7) % 256));
    expect(base64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    expect(base64Url(bytes.subarray(0, 100))).toBe(Buffer.from(bytes.subarray(0, 100)).toString("base64url"));
    expect(base64Utf8("ünïcödé:秘密")).toBe(Buffer.from("ünïcödé:秘密", "utf8").toString("base64"));
  });
});
