/**
 * Bearer-token providers for the HTTP client transports. `HttpAuth` is the seam the OAuth
 * provider of `@proto/mcp-client/oauth` implements structurally; `staticToken` and
 * `cachedToken` cover the simple cases (`commandToken` in `@proto/transport-http/node`).
 */

/** What the transport tells the provider when the server refused the token. */
export interface HttpAuthChallenge {
  /** 401, or 403 with `error="insufficient_scope"` (RFC 6750 section 3.1). */
  readonly status: 401 | 403;
  /** The raw `WWW-Authenticate` header, when the server sent one. */
  readonly challenge: string | undefined;
  /** The URL that was refused. */
  readonly url: URL;
  /** Aborted when the transport closes. */
  readonly signal?: AbortSignal;
}

/**
 * Supplies bearer tokens to an HTTP client transport (MCP 2025-11-25, basic/authorization).
 * The transport calls `token()` before every request and sends `Authorization: Bearer <token>`.
 */
export interface HttpAuth {
  /** The bearer token to send now, or undefined to send none. */
  token(): Promise<string | undefined>;
  /**
   * Called when the server answered 401, or 403 with error="insufficient_scope". `challenge` is
   * the raw WWW-Authenticate header. Resolve true to retry the request once more with a fresh token().
   */
  unauthorized(context: HttpAuthChallenge): Promise<boolean>;
}

/** Characters a token68 / bearer credential may hold (RFC 6750 section 2.1), kept loose: no whitespace or controls. */
const TOKEN_SHAPE = /^[\x21-\x7e]+$/;

/** Throws a `TypeError` unless `token` can be sent as a bearer credential. */
export function assertBearerToken(token: string, source: string): void {
  if (!TOKEN_SHAPE.test(token)) {
    throw new TypeError(
      `${source} returned a token that cannot be sent in an Authorization header (empty, or with spaces or control characters)`,
    );
  }
}

/**
 * A provider that always sends the same token and never retries (a refused static token
 * stays refused). Use it for API keys and tokens from configuration.
 */
export function staticToken(token: string): HttpAuth {
  assertBearerToken(token, "staticToken");
  return {
    token: async () => token,
    unauthorized: async () => false,
  };
}

/** Options of `cachedToken`. */
export interface CachedTokenOptions {
  /** Milliseconds a fetched token is reused before `load` runs again; default: until the server refuses it. */
  readonly cacheMs?: number;
}

/**
 * A provider that calls `load` for a token, reuses it, and calls `load` again after a 401
 * (the transport then retries the request once). Concurrent callers share one `load`.
 * A 403 `insufficient_scope` is not retried: a fresh token of the same kind gains no scope.
 */
export function cachedToken(load: () => Promise<string | undefined>, options: CachedTokenOptions = {}): HttpAuth {
  const cacheMs = options.cacheMs ?? Number.POSITIVE_INFINITY;
  let cached: { value: string | undefined; at: number } | undefined;
  let loading: Promise<string | undefined> | undefined;
  let generation = 0;

  async function fetchToken(): Promise<string | undefined> {
    const started = generation;
    const value = await load();
    if (value !== undefined) assertBearerToken(value, "The token provider");
    if (started === generation) cached = { value, at: Date.now() };
    return value;
  }

  return {
    async token() {
      if (cached && Date.now() - cached.at < cacheMs) return cached.value;
      if (loading) return loading;
      const pending = fetchToken();
      const clear = (): void => {
        if (loading === pending) loading = undefined;
      };
      pending.then(clear, clear);
      loading = pending;
      return pending;
    },
    async unauthorized(context) {
      if (context.status !== 401) return false;
      generation++;
      cached = undefined;
      loading = undefined;
      return true;
    },
  };
}
