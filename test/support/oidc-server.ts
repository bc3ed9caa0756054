/**
 * A real OpenID provider for the OAuth tests: `oidc-provider` (a certified implementation) on
 * 127.0.0.1, port 0, with dynamic registration, PKCE, resource indicators issuing JWT access
 * tokens for the MCP server, refresh tokens with rotation, client credentials, and its
 * development login and consent pages, which `createOidcUser` fills in without a browser.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSync } from "node:crypto";
import type { JWK } from "jose";
import Provider, { type ClientMetadata } from "oidc-provider";
import type { AuthorizationPrompt } from "@proto/mcp-client/oauth";

/** Options of `startOidcServer`. */
export interface OidcServerOptions {
  /** The MCP endpoint its access tokens are for (the resource indicator). */
  readonly resource: string;
  /** Scopes of that resource. */
  readonly scopes: readonly string[];
  /** Lifetime of access tokens, in seconds. Default 600. */
  readonly accessTokenTtl?: number;
  /** Clients known in advance (machine clients). */
  readonly clients?: readonly ClientMetadata[];
}

/** A running provider. */
export interface OidcServer {
  readonly issuer: string;
  readonly provider: Provider;
  /** Every token endpoint request, in order: its grant type and what it asked for. */
  readonly tokenRequests: { grantType: string | null; scope: string | null; resource: string | null }[];
  /** The query of every authorization request. */
  readonly authorizations: URLSearchParams[];
  close(): Promise<void>;
}

/** Starts the provider; `close()` stops it. */
export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const provider = new Provider(issuer, {
    clients: [...(options.clients ?? [])],
    jwks: { keys: [{ ...(privateKey.export({ format: "jwk" }) as JWK), kid: "sig", use: "sig", alg: "ES256" }] },
    cookies: { keys: ["test-only-cookie-key"] },
    clientDefaults: { id_token_signed_response_alg: "ES256" },
    scopes: ["openid", "offline_access", ...options.scopes],
    features: {
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== options.resource) throw new Error(`unknown resource ${indicator}`);
          return { scope: options.scopes.join(" "), audience: options.resource, accessTokenFormat: "jwt", accessTokenTTL: options.accessTokenTtl ?? 600, jwt: { sign: { alg: "ES256" } } };
        },
      },
    },
    clientAuthMethods: ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
    enabledJWA: { clientAuthSigningAlgValues: ["ES256", "RS256"] },
    rotateRefreshToken: true,
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  });
  const authorizations: URLSearchParams[] = [];
  const tokenRequests: OidcServer["tokenRequests"] = [];
  provider.use(async (ctx, next) => {
    if (ctx.method === "GET" && ctx.path === "/auth") authorizations.push(new URLSearchParams(ctx.querystring));
    await next();
  });
  provider.on("grant.success", (ctx) => {
    const body = (ctx.oidc.body ?? {}) as Record<string, unknown>;
    const read = (name: string): string | null => (typeof body[name] === "string" ? (body[name] as string) : null);
    tokenRequests.push({ grantType: read("grant_type"), scope: read("scope"), resource: read("resource") });
  });
  http.on("request", provider.callback());
  return {
    issuer,
    provider,
    authorizations,
    tokenRequests,
    close: () => new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    }),
  };
}

/** What the headless user does on the provider's pages. */
export interface OidcUserOptions {
  /** The account to sign in as. */
  readonly login: string;
  /** Approve the consent page, or abort it (the provider then answers `access_denied`). Default approve. */
  readonly consent?: "approve" | "deny";
  /** Milliseconds the user takes before signing in. Default 0. */
  readonly thinkMs?: number;
  /** Request the final redirect (a loopback listener), instead of only returning it. */
  readonly visitRedirect?: boolean;
}

/** A user in a browser without the browser: keeps cookies, signs in, consents, and counts the pages it was sent to. */
export interface OidcUser {
  /** Completes one authorization from its URL and returns the redirect back to the client. */
  authorize(prompt: Pick<AuthorizationPrompt, "url" | "redirectUri">): Promise<URL>;
  /** How many authorization URLs it was given. */
  readonly pagesOpened: number;
}

/** Creates a headless user of the provider's development login and consent pages. */
export function createOidcUser(options: OidcUserOptions): OidcUser {
  const cookies = new Map<string, string>();
  let pagesOpened = 0;
  async function visit(url: URL, init: RequestInit = {}): Promise<URL | undefined> {
    const headers = new Headers(init.headers);
    headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    await response.body?.cancel();
    const location = response.headers.get("location");
    return location === null ? undefined : new URL(location, url);
  }
  const form = (fields: Record<string, string>): RequestInit => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
  return {
    get pagesOpened() {
      return pagesOpened;
    },
    async authorize({ url, redirectUri }) {
      pagesOpened++;
      const target = new URL(redirectUri);
      let next = await visit(url);
      for (let hop = 0; hop < 12 && next !== undefined; hop++) {
        if (next.origin === target.origin && next.pathname === target.pathname) {
          if (options.visitRedirect === true) await visit(next);
          return next;
        }
        const interaction = /^\/interaction\/([^/]+)$/.exec(next.pathname);
        if (interaction === null) next = await visit(next);
        else if (!cookies.has("_session")) {
          await new Promise((resolve) => setTimeout(resolve, options.thinkMs ?? 0));
          next = await visit(next, form({ prompt: "login", login: options.login }));
        } else if (options.consent === "deny") next = await visit(new URL(`${next.pathname}/abort`, next));
        else next = await visit(next, form({ prompt: "consent" }));
      }
      throw new Error(`The provider did not redirect back to ${redirectUri}`);
    },
  };
}

/** A fresh EC private key for `private_key_jwt`, with its public JWK for the client's registration. */
export function createClientKey(kid: string): { privateKeyPem: string; publicJwk: JWK } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(), publicJwk: { ...(publicKey.export({ format: "jwk" }) as JWK), kid, alg: "ES256", use: "sig" } };
}
