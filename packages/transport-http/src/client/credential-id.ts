/**
 * An opaque id of the credentials an HTTP client transport would send now: the provider's
 * current bearer token, else the `Authorization` header among the owner's extra headers (the
 * same choice the requester makes). A client keys `cacheScope: "private"` lists by it
 * (2026-07-28 server/utilities/caching), so one user's lists are never served to another.
 */
import type { HttpAuth } from "./http-auth";
import type { HeadersOption } from "./options";

/** Where the credentials come from: the transport's own `auth` and `headers` options. */
export interface CredentialSource {
  readonly auth?: HttpAuth;
  readonly headers?: HeadersOption;
}

/** The `Authorization` value the next request would carry, or undefined when it carries none. */
async function currentCredential({ auth, headers }: CredentialSource): Promise<string | undefined> {
  const token = auth === undefined ? undefined : await auth.token();
  if (token !== undefined) return `Bearer ${token}`;
  if (headers === undefined) return undefined;
  return new Headers(typeof headers === "function" ? await headers() : headers).get("authorization") ?? undefined;
}

/** The SHA-256 digest of `value`, in hex. */
async function digest(value: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Creates the `credentialId` of a transport: resolves with a digest of the credential in use
 * (a new token gives a new id), or undefined when requests carry none. It asks the provider
 * for its token on each call and digests only a token it has not seen last. Rejects when the
 * provider does.
 */
export function createCredentialId(source: CredentialSource): () => Promise<string | undefined> {
  let last: { readonly credential: string; readonly id: Promise<string> } | undefined;
  return async () => {
    const credential = await currentCredential(source);
    if (credential === undefined) return undefined;
    if (last?.credential !== credential) last = { credential, id: digest(credential) };
    return last.id;
  };
}
