/**
 * Signed `requestState` for multi-round input (MCP 2026-07-28 basic/patterns/mrtr, "Request
 * State"): the client echoes it unparsed, so it is attacker-controlled. Each token is an
 * HMAC-SHA256 over its payload, bound to the method, a digest of the params, the principal and
 * an expiry. Keys rotate: the first key signs, every listed key verifies (by key id).
 *
 * Token: `v1.<key id>.<base64url payload>.<base64url mac>`. Runtime-neutral (Web Crypto).
 */
import { DEFAULT_MAX_DEPTH, JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";

/** One HMAC key. Give servers behind a load balancer the same keys; rotate by putting the new key first. */
export interface RequestStateKey {
  /** A short id carried in the token (letters, digits, `-`, `_`), so verification picks the right key. */
  readonly id: string;
  /** At least 32 bytes of secret (a string is taken as UTF-8). */
  readonly secret: string | Uint8Array;
}

/** Options of the request-state codec (`ServerOptions.stateless.requestState`). */
export interface RequestStateOptions {
  /** Signing keys, newest first. Default: one random key per server instance (single-process servers only). */
  readonly keys?: readonly RequestStateKey[];
  /** How long a token stays valid, in milliseconds. Default 600,000 (10 minutes). */
  readonly ttlMs?: number;
  /** The longest token accepted, in characters (checked before any work). Default 262,144. */
  readonly maxBytes?: number;
  /** The clock, for tests. */
  readonly now?: () => number;
}

/** What a token binds to. */
export interface StateBinding {
  readonly method: string;
  /** A digest of the request's params without `_meta`, `inputResponses` and `requestState`. */
  readonly digest: string;
  /** The principal's subject, or "" when unauthenticated. */
  readonly principal: string;
}

/** What a token carries. */
export interface StatePayload {
  /** Input responses of earlier rounds, by key. */
  readonly answers: { readonly [key: string]: unknown };
}

/** Mints and opens tokens. */
export interface RequestStateCodec {
  seal(binding: StateBinding, payload: StatePayload): Promise<string>;
  /** The payload of a valid token; -32602 for a tampered, expired, oversized or foreign one. */
  open(token: string, binding: StateBinding): Promise<StatePayload>;
}

const ID = /^[A-Za-z0-9_-]{1,32}$/;

function b64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    // one spelling per value: unused low bits of the last character must not make a second token
    return b64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}

function rejected(why: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: requestState ${why}; retry the request without requestState and inputResponses`);
}

function checkKeys(keys: readonly RequestStateKey[]): void {
  if (keys.length === 0) throw new TypeError("stateless.requestState.keys: pass at least one key (or omit it for a random one)");
  for (const key of keys) {
    if (!ID.test(key.id)) throw new TypeError(`stateless.requestState.keys: id ${JSON.stringify(key.id)} must be 1-32 letters, digits, - or _`);
    const length = typeof key.secret === "string" ? new TextEncoder().encode(key.secret).length : key.secret.length;
    if (length < 32) throw new TypeError(`stateless.requestState.keys: the secret of "${key.id}" must have at least 32 bytes`);
  }
}

/** Creates the codec. Misuse (short secrets, bad ids) throws a `TypeError`. */
export function createRequestStateCodec(options: RequestStateOptions = {}): RequestStateCodec {
  const keys = options.keys ?? [{ id: "r", secret: crypto.getRandomValues(new Uint8Array(32)) }];
  checkKeys(keys);
  const ttlMs = options.ttlMs ?? 600_000;
  const maxBytes = options.maxBytes ?? 262_144;
  const now = options.now ?? Date.now;
  const imported = new Map<string, Promise<CryptoKey>>();
  const keyOf = (key: RequestStateKey): Promise<CryptoKey> => {
    let found = imported.get(key.id);
    if (found === undefined) {
      const raw = typeof key.secret === "string" ? new TextEncoder().encode(key.secret) : new Uint8Array(key.secret);
      found = crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
      imported.set(key.id, found);
    }
    return found;
  };
  const signer = keys[0] as RequestStateKey;

  return {
    async seal(binding, payload) {
      const body = JSON.stringify({ m: binding.method, d: binding.digest, p: binding.principal, e: now() + ttlMs, a: payload.answers });
      const head = `v1.${signer.id}.${b64url(new TextEncoder().encode(body))}`;
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await keyOf(signer), new TextEncoder().encode(head)));
      return `${head}.${b64url(mac)}`;
    },
    async open(token, binding) {
      if (token.length > maxBytes) throw rejected(`is longer than ${maxBytes} characters`);
      const parts = token.split(".");
      if (parts.length !== 4 || parts[0] !== "v1") throw rejected("is not one this server issued");
      const key = keys.find((k) => k.id === parts[1]);
      const body = unb64url(parts[2] as string);
      const mac = unb64url(parts[3] as string);
      if (key === undefined || body === undefined || mac === undefined) throw rejected("is not one this server issued");
      const head = `${parts[0]}.${parts[1]}.${parts[2]}`;
      const valid = await crypto.subtle.verify("HMAC", await keyOf(key), mac, new TextEncoder().encode(head));
      if (!valid) throw rejected("failed its integrity check");
      const data = JSON.parse(new TextDecoder().decode(body)) as { m: string; d: string; p: string; e: number; a: StatePayload["answers"] };
      if (data.e < now()) throw rejected("has expired");
      if (data.m !== binding.method || data.d !== binding.digest || data.p !== binding.principal) throw rejected("belongs to another request");
      return { answers: data.a };
    },
  };
}

function canonical(value: unknown, depth = 0): string {
  if (depth > DEFAULT_MAX_DEPTH) return "null";
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const UNBOUND = new Set(["_meta", "inputResponses", "requestState"]);

/** The digest a token binds: SHA-256 of the canonical JSON of the params without the retry fields and `_meta`. */
export async function paramsDigest(params: unknown): Promise<string> {
  const bound: Record<string, unknown> = {};
  if (typeof params === "object" && params !== null && !Array.isArray(params)) {
    for (const [k, v] of Object.entries(params)) if (!UNBOUND.has(k)) bound[k] = v;
  }
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical(bound)));
  return b64url(new Uint8Array(hash));
}
