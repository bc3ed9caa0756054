import { afterEach, describe, expect, it } from "vitest";
import { startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import type { FixtureServer } from "./fixtures/http-fixture";
import { startResourceServer } from "./fixtures/resource-server";
import { createOAuth } from "./provider";
import { createHeadlessRedirect, followRedirects } from "./redirect";
import { applicationTypeFor } from "./registration";

/** `application_type` in dynamic client registration (2026-07-28 client-registration). */
const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

describe("application_type of dynamic registration", () => {
  it("is native for loopback and private-scheme redirects, web for a remote host", () => {
    for (const uri of ["http://127.0.0.1:9/callback", "http://localhost:8080/cb", "http://app.localhost/cb", "http://[::1]:3000/cb", "com.example.app:/oauth2redirect", "not a url"]) {
      expect(applicationTypeFor(uri), uri).toBe("native");
    }
    for (const uri of ["https://app.example.com/callback", "http://192.168.1.4/cb", "https://localhost.example.com/cb"]) expect(applicationTypeFor(uri), uri).toBe("web");
  });

  for (const [redirectUri, expected] of [["http://127.0.0.1:9/callback", "native"], ["https://host.example.com/callback", "web"]] as const) {
    it(`is sent in the registration request (${expected} for ${redirectUri})`, async () => {
      const auth = await startAuthServer();
      const server = await startResourceServer({ auth });
      open.push(auth, server);
      // The registration happens before the redirect: its outcome does not matter here.
      const redirect = createHeadlessRedirect({ redirectUri, authorize: followRedirects() });
      await call(createOAuth({ serverUrl: server.url, redirect }), server.url).catch(() => undefined);
      expect(auth.log.registrations[0]).toMatchObject({ application_type: expected, redirect_uris: [redirectUri] });
    });
  }
});
