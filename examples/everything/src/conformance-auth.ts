/**
 * The `auth/*` scenarios of the MCP conformance client suite (`@modelcontextprotocol/conformance`
 * 0.2.0-alpha.12) with @proto packages only. The conformance client command calls `runAuthScenario`
 * with `MCP_CONFORMANCE_SCENARIO`, the server URL (its last argument) and the parsed
 * `MCP_CONFORMANCE_CONTEXT` (pre-registered credentials, a private key).
 *
 * The suite's authorization servers approve every authorization request at once (a 302 to the
 * redirect URI with a code), so the flow is completed headlessly: `followRedirects` follows the
 * authorization URL with fetch until it points at our redirect URI.
 */
import { connect } from "@proto/mcp-client";
import {
  createClientCredentialsAuth,
  createHeadlessRedirect,
  createJwtBearerAuth,
  createOAuth,
  followRedirects,
  type JwsAlgorithm,
  type OAuthProvider,
  requestIdJag,
} from "@proto/mcp-client/oauth";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { protocolFor } from "./protocol-choice";

/** The Client ID Metadata Document URL the `auth/basic-cimd` scenario expects as `client_id`. */
export const CONFORMANCE_CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** The redirect URI registered by the headless flow (never listened on: the redirect is read, not followed). */
export const CONFORMANCE_REDIRECT_URI = "http://localhost:3000/callback";

const ALGORITHMS: readonly JwsAlgorithm[] = ["ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA"];

/** What `MCP_CONFORMANCE_CONTEXT` carries for the scenarios that need it. */
interface ScenarioContext {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_token_endpoint?: string;
  /** The workload identity token of `auth/wif-jwt-bearer` (its audience is the authorization server). */
  readonly valid_jwt?: string;
}

function readContext(context: unknown): ScenarioContext {
  const value: unknown = typeof context === "string" ? JSON.parse(context) : context;
  return typeof value === "object" && value !== null ? (value as ScenarioContext) : {};
}

function required(context: ScenarioContext, name: keyof ScenarioContext, scenario: string): string {
  const value = context[name];
  if (typeof value !== "string" || value === "") throw new TypeError(`${scenario} needs ${name} in MCP_CONFORMANCE_CONTEXT`);
  return value;
}

/** The OAuth provider each scenario requires. */
export function providerFor(scenario: string, serverUrl: string, context: unknown): OAuthProvider {
  const ctx = readContext(context);
  const redirect = createHeadlessRedirect({ redirectUri: CONFORMANCE_REDIRECT_URI, authorize: followRedirects() });
  switch (scenario) {
    case "auth/client-credentials-basic":
      return createClientCredentialsAuth({
        serverUrl,
        clientId: required(ctx, "client_id", scenario),
        clientSecret: required(ctx, "client_secret", scenario),
      });
    case "auth/client-credentials-jwt": {
      const algorithm = ALGORITHMS.find((name) => name === (ctx.signing_algorithm ?? "ES256"));
      if (algorithm === undefined) throw new TypeError(`${scenario}: unsupported signing_algorithm ${String(ctx.signing_algorithm)}`);
      return createClientCredentialsAuth({
        serverUrl,
        clientId: required(ctx, "client_id", scenario),
        signingKey: { key: required(ctx, "private_key_pem", scenario), algorithm },
      });
    }
    case "auth/enterprise-managed-authorization": {
      // Enterprise-managed authorization (SEP-990): ID token -> ID-JAG at the IdP -> access token.
      const idp = { endpoint: required(ctx, "idp_token_endpoint", scenario), token: required(ctx, "idp_id_token", scenario), client: required(ctx, "idp_client_id", scenario) };
      return createJwtBearerAuth({
        serverUrl,
        clientId: required(ctx, "client_id", scenario),
        clientSecret: required(ctx, "client_secret", scenario),
        assertion: ({ issuer, resource, signal }) =>
          requestIdJag({ tokenEndpoint: idp.endpoint, subjectToken: idp.token, clientId: idp.client, audience: issuer, resource, ...(signal === undefined ? {} : { signal }) }),
      });
    }
    case "auth/wif-jwt-bearer": {
      // Workload identity federation (SEP-1933): the platform-issued workload JWT is the RFC 7523 assertion of a public client.
      const workloadToken = required(ctx, "valid_jwt", scenario);
      return createJwtBearerAuth({ serverUrl, clientId: required(ctx, "client_id", scenario), assertion: async () => workloadToken });
    }
    case "auth/dpop":
    case "auth/dpop-nonce":
      // Sender-constrained tokens (SEP-1932, RFC 9449): proofs at the token endpoint and, through wrapFetch, on every MCP request.
      return createOAuth({ serverUrl, redirect, clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL, clientMetadata: { client_name: "proto-conformance-client" }, dpop: true });
    case "auth/pre-registration":
      return createOAuth({
        serverUrl,
        redirect,
        clients: { clientId: required(ctx, "client_id", scenario), clientSecret: required(ctx, "client_secret", scenario) },
      });
    default:
      return createOAuth({
        serverUrl,
        redirect,
        clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
        clientMetadata: { client_name: "proto-conformance-client" },
      });
  }
}

/**
 * Runs one `auth/*` scenario: connects to `serverUrl` over Streamable HTTP with the OAuth
 * provider the scenario requires, initializes, lists tools and calls `test-tool` when the
 * server has it (the step-up scenario needs the call). Rejects when the flow is refused
 * (which `auth/resource-mismatch` and `auth/scope-retry-limit` expect).
 */
export async function runAuthScenario(scenario: string, serverUrl: string, context: unknown): Promise<void> {
  const auth = providerFor(scenario, serverUrl, context);
  const transport = createStreamableHttpClientTransport(serverUrl, { auth, fetch: auth.wrapFetch() });
  const protocol = protocolFor(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION);
  const client = await connect(transport, { info: { name: "proto-conformance-client", version: "0.1.0" }, protocol });
  try {
    const { tools } = await client.listTools();
    if (tools.some((tool) => tool.name === "test-tool")) await client.callTool("test-tool", {});
  } finally {
    await client.close();
  }
}
