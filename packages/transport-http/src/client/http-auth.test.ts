import { afterEach, describe, expect, it } from "vitest";
import type { HttpAuth, HttpAuthChallenge } from "./http-auth";
import { cachedToken, staticToken } from "./http-auth";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive, initialize } from "./testing/drive";
import type { ScriptedServer } from "./testing/http-fixture";
import { startScriptedMcp } from "./testing/scripted-mcp";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A scripted MCP server behind a bearer check: only `good` passes. */
async function guarded(refusal = { status: 401, challenge: 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"' }) {
  const mcp = await startScriptedMcp({
    refuse: (req) =>
      req.headers.authorization === "Bearer good" ? undefined : { status: refusal.status, headers: { "www-authenticate": refusal.challenge } },
  });
  server = mcp;
  return { url: mcp.url, auths: () => mcp.seen.map((r) => r.headers.authorization) };
}

describe("HttpAuth on the Streamable HTTP client", () => {
  it("asks a cached provider for a fresh token after a 401 and retries once", async () => {
    const { url, auths } = await guarded();
    const tokens = ["stale", "good"];
    let loads = 0;
    const auth = cachedToken(async () => tokens[loads++]);
    const { peer } = await drive(createStreamableHttpClientTransport(url, { auth, standaloneStream: false }));
    await initialize(peer);
    expect(loads).toBe(2);
    expect(auths().slice(0, 3)).toEqual(["Bearer stale", "Bearer good", "Bearer good"]);
    await peer.close();
  });

  it("does not retry a static token and says what to do", async () => {
    const { url, auths } = await guarded();
    const { peer } = await drive(createStreamableHttpClientTransport(url, { auth: staticToken("wrong"), standaloneStream: false }));
    await expect(initialize(peer)).rejects.toThrow(/answered 401.*pass an `auth` provider/);
    expect(auths()).toEqual(["Bearer wrong"]);
    await peer.close();
  });

  it("passes a 403 insufficient_scope challenge to the provider, and retries once when it says so", async () => {
    const challenge = 'Bearer error="insufficient_scope", scope="tools:write"';
    const { url, auths } = await guarded({ status: 403, challenge });
    const calls: HttpAuthChallenge[] = [];
    let current = "narrow";
    const auth: HttpAuth = {
      token: async () => current,
      unauthorized: async (context) => {
        calls.push(context);
        current = "good";
        return true;
      },
    };
    const { peer } = await drive(createStreamableHttpClientTransport(url, { auth, standaloneStream: false }));
    await initialize(peer);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ status: 403, challenge, url });
    expect(auths()[0]).toBe("Bearer narrow");
    await peer.close();
  });

  it("does not call the provider for a plain 403 (Origin or policy refusals are not token problems)", async () => {
    const { url } = await guarded({ status: 403, challenge: "" });
    let called = false;
    const auth: HttpAuth = { token: async () => "x", unauthorized: async () => (called = true) };
    const { peer } = await drive(createStreamableHttpClientTransport(url, { auth, standaloneStream: false }));
    await expect(initialize(peer)).rejects.toMatchObject({ status: 403 });
    expect(called).toBe(false);
    await peer.close();
  });

  it("reports a provider that fails, or returns a token that cannot go in a header, as AUTH", async () => {
    const { url } = await guarded();
    for (const auth of [cachedToken(async () => Promise.reject(new Error("vault sealed"))), cachedToken(async () => "a\r\nX-Evil: 1")]) {
      const { peer } = await drive(createStreamableHttpClientTransport(url, { auth, standaloneStream: false }));
      await expect(initialize(peer)).rejects.toMatchObject({ code: "AUTH" });
      await peer.close();
    }
  });
});

describe("token providers", () => {
  it("staticToken refuses an empty or multi-line token", () => {
    expect(() => staticToken("")).toThrow(TypeError);
    expect(() => staticToken("a b")).toThrow(/cannot be sent in an Authorization header/);
  });

  it("cachedToken shares one load between concurrent callers and reuses it until a 401", async () => {
    let loads = 0;
    const auth = cachedToken(async () => `t${++loads}`);
    expect(await Promise.all([auth.token(), auth.token(), auth.token()])).toEqual(["t1", "t1", "t1"]);
    const refused = { status: 401, challenge: undefined, url: new URL("http://x") } as const;
    expect(await auth.unauthorized(refused)).toBe(true);
    expect(await auth.token()).toBe("t2");
    expect(await auth.unauthorized({ ...refused, status: 403 })).toBe(false);
    expect(loads).toBe(2);
  });

  it("cachedToken loads again after cacheMs", async () => {
    let loads = 0;
    const auth = cachedToken(async () => `t${++loads}`, { cacheMs: 0 });
    await auth.token();
    await auth.token();
    expect(loads).toBe(2);
  });
});
