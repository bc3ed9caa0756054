/**
 * Client authentication at the token endpoint: `none` (public client, RFC 6749 §2.1),
 * `client_secret_basic` (§2.3.1), `client_secret_post` (§2.3.1) and `private_key_jwt`
 * (RFC 7523 §2.2), chosen from what the client holds and what the server advertises
 * (`token_endpoint_auth_methods_supported`, default `client_secret_basic` per RFC 8414 §2).
 */
import { OAuthError, OAuthFaultCode } from "./errors";
import { importSigningKey, type JwsAlgorithm, type PrivateKeyInput, signClientAssertion } from "./jwt";
import { listAllows } from "./metadata";
import { base64Utf8 } from "./pkce";

/** The token endpoint authentication methods this provider speaks. */
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** A private key for `private_key_jwt`. */
export interface ClientSigningKey {
  readonly key: PrivateKeyInput;
  /** Default `ES256`. */
  readonly algorithm?: JwsAlgorithm;
  /** The `kid` header, when the server holds several of the client's keys. */
  readonly keyId?: string;
}

/** What the client authenticates with at one authorization server. */
export interface ClientIdentity {
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly signingKey?: ClientSigningKey;
  /** The method the server told us to use (registration response) or the owner configured. */
  readonly method?: TokenEndpointAuthMethod;
}

const METHODS: readonly string[] = ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"];

/** True when `value` is a token endpoint authentication method this provider speaks. */
export function isTokenEndpointAuthMethod(value: unknown): value is TokenEndpointAuthMethod {
  return typeof value === "string" && METHODS.includes(value);
}

/** Chooses the method for `client` given the server's advertised list. */
export function chooseAuthMethod(client: ClientIdentity, supported: readonly string[] | undefined): TokenEndpointAuthMethod {
  if (client.method !== undefined) return client.method;
  if (client.signingKey !== undefined) {
    if (listAllows(supported, "private_key_jwt")) return "private_key_jwt";
    throw unsupported("private_key_jwt", supported);
  }
  if (client.clientSecret !== undefined) {
    if (listAllows(supported ?? ["client_secret_basic"], "client_secret_basic")) return "client_secret_basic";
    if (supported?.includes("client_secret_post") === true) return "client_secret_post";
    // A secret the server does not want (a registration that issued one anyway) is not used.
    if (supported?.includes("none") === true) return "none";
    throw unsupported("client_secret_basic or client_secret_post", supported);
  }
  return "none";
}

/** Refuses a `private_key_jwt` algorithm the server does not list in `token_endpoint_auth_signing_alg_values_supported`. */
export function checkSigningAlgorithm(client: ClientIdentity, supported: readonly string[] | undefined): void {
  const algorithm = client.signingKey?.algorithm ?? "ES256";
  if (client.signingKey === undefined || listAllows(supported, algorithm)) return;
  throw new OAuthError(
    OAuthFaultCode.AuthMethodUnsupported,
    `The authorization server does not accept ${algorithm} client assertions (it lists ${(supported ?? []).join(", ")}); sign with one of those.`,
    { detail: { supported } },
  );
}

function unsupported(wanted: string, supported: readonly string[] | undefined): OAuthError {
  return new OAuthError(
    OAuthFaultCode.AuthMethodUnsupported,
    `The authorization server does not accept ${wanted} at its token endpoint (it lists ${(supported ?? []).join(", ") || "nothing"}); configure credentials it accepts.`,
    { detail: { supported } },
  );
}

/** `application/x-www-form-urlencoded` encoding of one value (RFC 6749 Appendix B). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** Where the signing key is imported once and kept. */
export type KeyCache = Map<ClientSigningKey, Promise<CryptoKey>>;

/** Adds client authentication for `method` to a token request's form and headers. */
export async function applyClientAuth(
  method: TokenEndpointAuthMethod,
  client: ClientIdentity,
  form: URLSearchParams,
  headers: Record<string, string>,
  context: { readonly audience: string; readonly now: number; readonly keys: KeyCache },
): Promise<void> {
  switch (method) {
    case "none":
      form.set("client_id", client.clientId);
      return;
    case "client_secret_basic":
      headers.authorization = `Basic ${base64Utf8(`${formEncode(client.clientId)}:${formEncode(requireSecret(client, method))}`)}`;
      return;
    case "client_secret_post":
      form.set("client_id", client.clientId);
      form.set("client_secret", requireSecret(client, method));
      return;
    case "private_key_jwt": {
      const signing = client.signingKey;
      if (signing === undefined) throw new OAuthError(OAuthFaultCode.AuthMethodUnsupported, "private_key_jwt needs a signingKey; none is configured.");
      const algorithm = signing.algorithm ?? "ES256";
      let key = context.keys.get(signing);
      if (key === undefined) {
        key = importSigningKey(signing.key, algorithm);
        context.keys.set(signing, key);
      }
      const assertion = await signClientAssertion({
        clientId: client.clientId,
        audience: context.audience,
        algorithm,
        key: await key,
        now: context.now,
        ...(signing.keyId === undefined ? {} : { keyId: signing.keyId }),
      });
      form.set("client_id", client.clientId);
      form.set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      form.set("client_assertion", assertion);
      return;
    }
  }
}

function requireSecret(client: ClientIdentity, method: TokenEndpointAuthMethod): string {
  if (client.clientSecret === undefined) {
    throw new OAuthError(OAuthFaultCode.AuthMethodUnsupported, `${method} needs a client secret, and client ${client.clientId} has none.`);
  }
  return client.clientSecret;
}
