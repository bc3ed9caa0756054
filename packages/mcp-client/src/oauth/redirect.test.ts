import { afterEach, describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { type FixtureServer, redirect, startServer } from "./fixtures/http-fixture";
import { createHeadlessRedirect, followRedirects } from "./redirect";

const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

describe("headless redirect", () => {
  it("hands the authorization URL to the callback and returns its URL", async () => {
    const handler = createHeadlessRedirect({ redirectUri: "http://localhost:3000/callback", authorize: async ({ url, redirectUri }) => `${redirectUri}?code=x&from=${url.host}` });
    const session = await handler.begin();
    expect(session.redirectUri).toBe("http://localhost:3000/callback");
    expect((await session.complete(new URL("https://as.example/authorize"))).searchParams.get("from")).toBe("as.example");
    await session.close();
  });

  it("refuses bad options and a callback that returns garbage", async () => {
    expect(() => createHeadlessRedirect({ redirectUri: "nope", authorize: async () => "" })).toThrow(TypeError);
    const session = await createHeadlessRedirect({ redirectUri: "http://localhost/cb", authorize: async () => "not a url" }).begin();
    await expect(session.complete(new URL("https://as.example"))).rejects.toMatchObject({ code: OAuthFaultCode.InvalidCallback });
  });
});

describe("followRedirects", () => {
  it("follows hops until the redirect URI and never requests it", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/authorize") return redirect(response, "/consent");
      if (request.url === "/consent") return redirect(response, "http://127.0.0.1:1/callback?code=abc&state=s");
      response.writeHead(500).end();
    });
    open.push(server);
    const url = await followRedirects()({ url: new URL(`${server.origin}/authorize`), redirectUri: "http://127.0.0.1:1/callback" });
    expect(url.href).toBe("http://127.0.0.1:1/callback?code=abc&state=s");
  });

  it("refuses a page that needs a user, and redirect loops", async () => {
    const server = await startServer((request, response) => {
      if (request.url === "/login") return response.writeHead(200, { "content-type": "text/html" }).end("<form>");
      redirect(response, "/loop");
    });
    open.push(server);
    await expect(followRedirects()({ url: new URL(`${server.origin}/login`), redirectUri: "http://127.0.0.1:1/cb" })).rejects.toMatchObject({
      code: OAuthFaultCode.InvalidCallback,
      message: expect.stringContaining("needs a user"),
    });
    await expect(followRedirects({ maxRedirects: 3 })({ url: new URL(`${server.origin}/loop`), redirectUri: "http://127.0.0.1:1/cb" })).rejects.toThrow(/More than 3 redirects/);
  });
});
