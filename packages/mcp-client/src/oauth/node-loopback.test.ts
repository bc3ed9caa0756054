import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { createLoopbackRedirect } from "./node-loopback";

describe("loopback redirect", () => {
  it("listens on 127.0.0.1, ignores foreign callbacks, resolves with the matching one and closes", async () => {
    const seen: string[] = [];
    let opened: Promise<void> = Promise.resolve();
    const browse = async (url: URL): Promise<void> => {
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        const foreign = await fetch(`${redirectUri}?code=evil&state=forged`);
        seen.push(`foreign ${foreign.status}`);
        const other = await fetch(new URL("/favicon.ico", redirectUri));
        seen.push(`other ${other.status}`);
        const real = await fetch(`${redirectUri}?code=c1&state=${url.searchParams.get("state") ?? ""}`);
        seen.push(`real ${real.status} ${(await real.text()).includes("close this window")}`);
    };
    const handler = createLoopbackRedirect({
      open: (url) => {
        opened = browse(url);
        return opened;
      },
      onAuthorizationUrl: (url) => seen.push(`printed ${url.pathname}`),
    });
    const session = await handler.begin();
    expect(session.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const authorization = new URL("https://as.example/authorize");
    authorization.searchParams.set("redirect_uri", session.redirectUri);
    authorization.searchParams.set("state", "s-123");
    const callback = await session.complete(authorization);
    expect(callback.searchParams.get("code")).toBe("c1");
    await opened;
    expect(seen).toEqual(["printed /authorize", "foreign 400", "other 404", "real 200 true"]);
    await session.close();
    await session.close();
    await expect(fetch(session.redirectUri)).rejects.toThrow();
  });

  it("keeps waiting when the browser cannot be opened, and times out with TIMEOUT", async () => {
    const warnings: string[] = [];
    const handler = createLoopbackRedirect({
      open: () => Promise.reject(new Error("no browser")),
      timeoutMs: 50,
      logger: { warn: (message) => warnings.push(message), error: () => undefined },
    });
    const session = await handler.begin();
    try {
      const authorization = new URL(`https://as.example/authorize?state=s`);
      await expect(session.complete(authorization)).rejects.toMatchObject({ code: OAuthFaultCode.Timeout });
      expect(warnings).toEqual(["Could not open the browser; open the authorization URL by hand."]);
    } finally {
      await session.close();
    }
  });

  it("stops waiting when the signal aborts", async () => {
    const session = await createLoopbackRedirect({ open: () => undefined }).begin();
    const controller = new AbortController();
    const waiting = session.complete(new URL("https://as.example/authorize?state=s"), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: OAuthFaultCode.Aborted });
    await session.close();
  });

  it("rejects bad options", () => {
    expect(() => createLoopbackRedirect({ path: "callback" })).toThrow(TypeError);
    expect(() => createLoopbackRedirect({ port: 70_000 })).toThrow(TypeError);
  });
});
