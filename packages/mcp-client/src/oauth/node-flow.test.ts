import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import type { FixtureServer } from "./fixtures/http-fixture";
import { startResourceServer } from "./fixtures/resource-server";
import { createFileTokenStore } from "./node-file-store";
import { createLoopbackRedirect } from "./node-loopback";
import { createOAuth } from "./provider";

const open: FixtureServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("a CLI host: loopback redirect and file store", () => {
  it("authorizes through the loopback listener, then a restarted host refreshes from the file", async () => {
    const auth = await startAuthServer();
    const server = await startResourceServer({ auth });
    open.push(auth, server);
    const dir = await mkdtemp(join(tmpdir(), "proto-oauth-flow-"));
    dirs.push(dir);
    const path = join(dir, "oauth.json");
    // The "browser": follows the authorization URL; the authorization server redirects to the listener.
    const redirect = createLoopbackRedirect({ port: 0, open: async (url) => void (await fetch(url)).text() });
    const first = createOAuth({ serverUrl: server.url, redirect, store: createFileTokenStore({ path }) });
    expect((await call(first, server.url)).status).toBe(200);
    expect(auth.log.authorizations[0]?.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    auth.revokeAccessTokens();
    const restarted = createOAuth({ serverUrl: server.url, store: createFileTokenStore({ path }) });
    expect((await call(restarted, server.url)).status).toBe(200);
    expect(auth.log.authorizations).toHaveLength(1);
    expect(auth.log.tokenRequests.at(-1)?.form.get("grant_type")).toBe("refresh_token");
  });
});
