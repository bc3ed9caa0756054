import { afterEach, describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import { type FixtureServer, json, readBody, startServer } from "./fixtures/http-fixture";
import { startResourceServer } from "./fixtures/resource-server";
import { createJwtBearerAuth, requestIdJag } from "./jwt-bearer";

const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

async function identityProvider(answer: (form: URLSearchParams) => [number, unknown]) {
  const forms: URLSearchParams[] = [];
  const server = await startServer(async (request, response) => {
    const form = new URLSearchParams(await readBody(request));
    forms.push(form);
    const [status, body] = answer(form);
    json(response, status, body);
  });
  open.push(server);
  return { tokenEndpoint: `${server.origin}/token`, forms };
}

describe("enterprise-managed authorization (ID-JAG + JWT bearer grant)", () => {
  it("exchanges the ID token at the IdP, then the ID-JAG at the MCP authorization server", async () => {
    const idp = await identityProvider(() => [200, { access_token: "id-jag-1", issued_token_type: "urn:ietf:params:oauth:token-type:id-jag", token_type: "N_A" }]);
    const auth = await startAuthServer({ grantTypes: [JWT_BEARER], authMethods: ["client_secret_basic"], preRegistered: [{ clientId: "app", clientSecret: "pw" }], acceptAssertion: "id-jag-1" });
    const server = await startResourceServer({ auth });
    open.push(auth, server);
    const oauth = createJwtBearerAuth({
      serverUrl: server.url,
      clientId: "app",
      clientSecret: "pw",
      assertion: ({ issuer, resource }) => requestIdJag({ tokenEndpoint: idp.tokenEndpoint, subjectToken: "id-token", clientId: "idp-client", audience: issuer, resource }),
    });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(Object.fromEntries(idp.forms[0] ?? [])).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: auth.issuer,
      resource: server.url,
      subject_token: "id-token",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      client_id: "idp-client",
    });
    const grant = auth.log.tokenRequests[0];
    expect(grant?.method).toBe("client_secret_basic");
    expect(grant?.form.get("grant_type")).toBe(JWT_BEARER);
    expect(grant?.form.get("assertion")).toBe("id-jag-1");
  });

  it("refuses servers without the grant and IdP answers without an ID-JAG", async () => {
    const auth = await startAuthServer({ grantTypes: ["authorization_code"] });
    const server = await startResourceServer({ auth });
    open.push(auth, server);
    const oauth = createJwtBearerAuth({ serverUrl: server.url, clientId: "app", clientSecret: "pw", assertion: async () => "x" });
    await expect(call(oauth, server.url)).rejects.toMatchObject({ code: OAuthFaultCode.GrantUnsupported });

    const wrongType = await identityProvider(() => [200, { access_token: "a", issued_token_type: "urn:ietf:params:oauth:token-type:access_token" }]);
    const base = { subjectToken: "t", clientId: "c", audience: "https://as", resource: "https://mcp" };
    await expect(requestIdJag({ ...base, tokenEndpoint: wrongType.tokenEndpoint })).rejects.toMatchObject({ code: OAuthFaultCode.InvalidTokenResponse });
    const refusing = await identityProvider(() => [400, { error: "invalid_grant" }]);
    await expect(requestIdJag({ ...base, tokenEndpoint: refusing.tokenEndpoint })).rejects.toMatchObject({ code: OAuthFaultCode.TokenRequestFailed, detail: { error: "invalid_grant" } });
    await expect(requestIdJag({ ...base, tokenEndpoint: "http://idp.example/token" })).rejects.toMatchObject({ code: OAuthFaultCode.InsecureEndpoint });
  });

  it("rejects bad options", () => {
    expect(() => createJwtBearerAuth({ serverUrl: "https://x/mcp", clientId: "", assertion: async () => "" })).toThrow(TypeError);
    expect(() => createJwtBearerAuth({ serverUrl: "https://x/mcp", clientId: "c" } as never)).toThrow(/assertion/);
  });
});
