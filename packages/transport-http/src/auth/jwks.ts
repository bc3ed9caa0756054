/**
 * A remote JWKS (RFC 7517) for the verifier: fetched once and trusted for `cacheMaxAgeMs`,
 * refetched when a token names an unknown `kid` (at most every `cooldownMs`, so random `kid`s
 * cannot drive fetches), and a negative cache during an outage: after a failed fetch no request
 * fetches again until a backoff has passed (doubling from `retryDelayMs` up to
 * `maxRetryDelayMs`); until then verification fails at once with `JWKS_UNAVAILABLE` (the handler
 * answers 503), instead of every request waiting on a dead endpoint.
 */
import { createLocalJWKSet } from "jose";
import type { JSONWebKeySet, JWTVerifyGetKey } from "jose";
import type { Logger } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "../server/errors";

/** Options of `createRemoteKeySet`, resolved by the verifier. */
export interface RemoteKeySetOptions {
  readonly url: URL;
  readonly cacheMaxAgeMs: number;
  readonly cooldownMs: number;
  readonly timeoutMs: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly now: () => number;
  readonly logger: Logger | undefined;
}

async function fetchKeySet(options: RemoteKeySetOptions): Promise<JWTVerifyGetKey> {
  const response = await options.fetch(options.url.href, { headers: { accept: "application/json" }, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs) });
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the JWKS endpoint answered ${response.status}`);
  }
  return createLocalJWKSet((await response.json()) as JSONWebKeySet);
}

/** Creates the key getter `jwtVerify` calls. Its rejections other than `jose` key errors carry `JWKS_UNAVAILABLE`. */
export function createRemoteKeySet(options: RemoteKeySetOptions): JWTVerifyGetKey {
  const { now } = options;
  let local: JWTVerifyGetKey | undefined;
  let fetchedAt = -Infinity;
  let pending: Promise<void> | undefined;
  let failures = 0;
  let retryAt = -Infinity;

  function unavailable(message: string, cause?: unknown): HttpServerError {
    return new HttpServerError(HttpFaultCode.JwksUnavailable, message, cause === undefined ? undefined : { cause });
  }

  function refresh(): Promise<void> {
    if (now() < retryAt) {
      return Promise.reject(unavailable(`the JWKS could not be fetched (${failures} failed attempt(s)); the next attempt is in ${Math.ceil(retryAt - now())} ms`));
    }
    pending ??= fetchKeySet(options)
      .then(
        (keys) => {
          local = keys;
          fetchedAt = now();
          failures = 0;
          retryAt = -Infinity;
        },
        (cause: unknown) => {
          failures += 1;
          const delay = Math.min(options.maxRetryDelayMs, options.retryDelayMs * 2 ** (failures - 1));
          retryAt = now() + delay;
          const error = unavailable(`the JWKS at ${options.url.href} could not be fetched or read; tokens cannot be verified for the next ${delay} ms`, cause);
          options.logger?.error(error.message, cause);
          throw error;
        },
      )
      .finally(() => {
        pending = undefined;
      });
    return pending;
  }

  return async (header, token) => {
    if (!local || now() - fetchedAt >= options.cacheMaxAgeMs) await refresh();
    try {
      return await (local as JWTVerifyGetKey)(header, token);
    } catch (error) {
      const noMatch = (error as { code?: unknown } | null)?.code === "ERR_JWKS_NO_MATCHING_KEY";
      if (!noMatch || now() - fetchedAt < options.cooldownMs) throw error;
      await refresh();
      return (local as JWTVerifyGetKey)(header, token);
    }
  };
}
