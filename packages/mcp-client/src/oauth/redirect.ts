/**
 * How the user (or a test) gets through the authorization endpoint. A `RedirectHandler`
 * opens one session per authorization: it names the redirect URI (registered before the
 * authorization URL exists), shows the authorization URL, and resolves with the URL the
 * authorization server redirected back to. The loopback listener for CLI hosts is Node-only
 * (`@proto/mcp-client/oauth/node`); the headless handler here works anywhere.
 */
import { abortError, OAuthError, OAuthFaultCode } from "./errors";
import type { FetchLike } from "./http";

/** Opens redirect sessions; one session serves one authorization. */
export interface RedirectHandler {
  /** Prepares one authorization (a loopback handler starts listening here). */
  begin(signal?: AbortSignal): Promise<RedirectSession>;
}

/** One authorization's redirect. The provider always calls `close()`, whatever happens. */
export interface RedirectSession {
  /** The `redirect_uri` to register and to send (OAuth 2.1: https or loopback). */
  readonly redirectUri: string;
  /**
   * Sends the user to `authorizationUrl` and resolves with the full redirect URL that came
   * back (with `code` and `state`, or `error`). Never pass `authorizationUrl` to a shell.
   */
  complete(authorizationUrl: URL, signal?: AbortSignal): Promise<URL>;
  /** Releases what `begin` acquired. Idempotent. */
  close(): Promise<void>;
}

/** What a headless handler's callback receives. */
export interface AuthorizationPrompt {
  readonly url: URL;
  readonly redirectUri: string;
  readonly signal?: AbortSignal;
}

/** Options of `createHeadlessRedirect`. */
export interface HeadlessRedirectOptions {
  /** The redirect URI registered for this client (it need not be listened on). */
  readonly redirectUri: string;
  /**
   * Receives the authorization URL and resolves with the redirect URL the authorization
   * server sent back (a host that pastes it in, a test that follows the redirects).
   */
  readonly authorize: (prompt: AuthorizationPrompt) => Promise<URL | string>;
}

/** A redirect handler for headless hosts and tests: a callback gets the authorization URL and returns the callback URL. */
export function createHeadlessRedirect(options: HeadlessRedirectOptions): RedirectHandler {
  let redirect: URL;
  try {
    redirect = new URL(options.redirectUri);
  } catch {
    throw new TypeError(`createHeadlessRedirect: redirectUri must be an absolute URL, got ${JSON.stringify(options.redirectUri)}.`);
  }
  if (typeof options.authorize !== "function") throw new TypeError("createHeadlessRedirect: authorize must be a function.");
  return {
    begin: () =>
      Promise.resolve({
        redirectUri: redirect.href,
        complete: async (url: URL, signal?: AbortSignal) => {
          const answer = await options.authorize({ url, redirectUri: redirect.href, ...(signal === undefined ? {} : { signal }) });
          try {
            return new URL(answer);
          } catch (cause) {
            throw new OAuthError(OAuthFaultCode.InvalidCallback, "The authorize callback did not return an absolute URL.", { cause });
          }
        },
        close: () => Promise.resolve(),
      }),
  };
}

/** Options of `followRedirects`. */
export interface FollowRedirectsOptions {
  /** Default: the global `fetch`. Must expose `Location` on `redirect: "manual"` (Node's fetch does; browsers do not). */
  readonly fetch?: FetchLike;
  /** Default 10. */
  readonly maxRedirects?: number;
  /** Extra request headers (a test session cookie). */
  readonly headers?: Record<string, string>;
}

/**
 * An `authorize` callback for servers that approve without a user (test and conformance
 * authorization servers): it GETs the authorization URL and follows redirects until one
 * points at the redirect URI, and returns that URL without requesting it.
 */
export function followRedirects(options: FollowRedirectsOptions = {}): (prompt: AuthorizationPrompt) => Promise<URL> {
  const fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  const max = options.maxRedirects ?? 10;
  return async ({ url, redirectUri, signal }) => {
    const target = new URL(redirectUri);
    let current = url;
    for (let hop = 0; hop <= max; hop++) {
      if (signal?.aborted === true) throw abortError(signal);
      if (current.origin === target.origin && current.pathname === target.pathname) return current;
      const response = await fetchImpl(current, { redirect: "manual", headers: options.headers ?? {}, ...(signal === undefined ? {} : { signal }) });
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || location === null) {
        throw new OAuthError(
          OAuthFaultCode.InvalidCallback,
          `The authorization endpoint answered HTTP ${response.status} without redirecting back to ${redirectUri}; it needs a user.`,
          { detail: { status: response.status } },
        );
      }
      current = new URL(location, current);
    }
    throw new OAuthError(OAuthFaultCode.InvalidCallback, `More than ${max} redirects without reaching ${redirectUri}.`);
  };
}
