/**
 * PKCE (RFC 7636) with S256, random state values and base64url, on WebCrypto only.
 */

/** A PKCE pair: the verifier stays with the client, the challenge goes in the authorization request. */
export interface Pkce {
  /** 43 characters of base64url (32 random bytes), RFC 7636 §4.1. */
  readonly verifier: string;
  /** BASE64URL(SHA-256(verifier)), RFC 7636 §4.2. */
  readonly challenge: string;
  readonly method: "S256";
}

/** Creates a fresh PKCE pair. */
export async function createPkce(): Promise<Pkce> {
  const verifier = randomToken(32);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64Url(new Uint8Array(digest)), method: "S256" };
}

/** `bytes` random bytes as base64url (for `state`, PKCE verifiers and JWT ids). */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** base64url without padding (RFC 4648 §5). */
export function base64Url(bytes: Uint8Array): string {
  return base64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Standard base64 of bytes, without Node's Buffer. */
export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Standard base64 of a string's UTF-8 bytes. */
export function base64Utf8(text: string): string {
  return base64(new TextEncoder().encode(text));
}
