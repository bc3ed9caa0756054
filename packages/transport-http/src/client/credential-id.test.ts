import { describe, expect, it } from "vitest";
import type { HttpAuth } from "./http-auth";
import { staticToken } from "./http-auth";
import { createCredentialId } from "./credential-id";
import { createHttpClientTransport } from "./http-client-transport";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { createSseClientTransport } from "../legacy/sse-client-transport";

const neverFetch = async (): Promise<Response> => {
  throw new Error("no request is expected");
};

/** A provider whose user can be switched, as an OAuth provider's is after a new login. */
function switchable(first: string | undefined): HttpAuth & { token: () => Promise<string | undefined>; use(token: string | undefined): void } {
  let current = first;
  return { token: async () => current, unauthorized: async () => false, use: (token) => void (current = token) };
}

describe("createCredentialId", () => {
  it("is undefined when requests carry no credential", async () => {
    expect(await createCredentialId({})()).toBeUndefined();
    expect(await createCredentialId({ auth: switchable(undefined), headers: { "x-other": "1" } })()).toBeUndefined();
  });

  it("is an opaque digest, equal for the same token and different for another (a switched user)", async () => {
    const auth = switchable("token-of-ada");
    const id = createCredentialId({ auth });
    const ada = await id();
    expect(ada).toMatch(/^[0-9a-f]{64}$/);
    expect(ada).not.toContain("ada");
    expect(await id()).toBe(ada);
    expect(await createCredentialId({ auth: staticToken("token-of-ada") })()).toBe(ada);
    auth.use("token-of-bob");
    const bob = await id();
    expect(bob).toMatch(/^[0-9a-f]{64}$/);
    expect(bob).not.toBe(ada);
    auth.use("token-of-ada");
    expect(await id()).toBe(ada);
  });

  it("falls back to an Authorization header of the extra headers, as the requester does", async () => {
    const bearer = await createCredentialId({ auth: staticToken("k") })();
    expect(await createCredentialId({ headers: { Authorization: "Bearer k" } })()).toBe(bearer);
    expect(await createCredentialId({ auth: switchable(undefined), headers: async () => ({ authorization: "Bearer k" }) })()).toBe(bearer);
    // The provider's token wins over the header, as on the wire.
    expect(await createCredentialId({ auth: staticToken("other"), headers: { Authorization: "Bearer k" } })()).not.toBe(bearer);
  });

  it("rejects when the provider cannot give a token", async () => {
    const failing: HttpAuth = { token: async () => { throw new Error("login needed"); }, unauthorized: async () => false };
    await expect(createCredentialId({ auth: failing })()).rejects.toThrow("login needed");
  });

  it("is what every HTTP client transport gives as credentialId", async () => {
    const options = { auth: staticToken("shared"), fetch: neverFetch };
    const expected = await createCredentialId(options)();
    expect(await createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", options).credentialId()).toBe(expected);
    expect(await createHttpClientTransport("http://127.0.0.1:1/mcp", options).credentialId()).toBe(expected);
    expect(await createSseClientTransport("http://127.0.0.1:1/sse", options).credentialId()).toBe(expected);
    expect(await createHttpClientTransport("http://127.0.0.1:1/mcp", { fetch: neverFetch }).credentialId()).toBeUndefined();
  });
});
