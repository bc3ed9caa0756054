/**
 * One HTTP request with everything every request needs: the owner's extra headers, the
 * bearer token, one retry after a 401 (or a 403 `insufficient_scope`) when the auth
 * provider asks for it, and network failures turned into `HttpClientError`s.
 */
import type { HttpAuth } from "./http-auth";
import type { FetchLike, HeadersOption } from "./options";
import { assertBearerToken } from "./http-auth";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { discardBody } from "./response-body";
import { HttpHeader } from "../shared/headers";

/** What the requester needs to know once. */
export interface RequesterOptions {
  readonly fetch?: FetchLike;
  readonly headers?: HeadersOption;
  readonly auth?: HttpAuth;
}

/** One request. */
export interface HttpRequest {
  readonly method: "GET" | "POST" | "DELETE";
  readonly url: URL;
  /** The transport's own headers; they win over the owner's extra headers. */
  readonly headers: { readonly [name: string]: string };
  readonly body?: string;
  readonly signal: AbortSignal;
}

/** Sends a request and resolves with the response of the last attempt (any status). */
export type Requester = (request: HttpRequest) => Promise<Response>;

/** Headers only the transport sets: the owner's extra headers never carry them. */
const OWN_HEADERS = [HttpHeader.SessionId, HttpHeader.ProtocolVersion, HttpHeader.LastEventId, "content-type", "accept"] as const;

const INSUFFICIENT_SCOPE = /error\s*=\s*"?insufficient_scope"?/i;

function globalFetch(): FetchLike {
  if (typeof fetch !== "function") {
    throw new TypeError("No global fetch in this runtime: pass the `fetch` option (for example from undici)");
  }
  return (input, init) => fetch(input, init);
}

async function buildHeaders(request: HttpRequest, extra: HeadersOption | undefined, auth: HttpAuth | undefined): Promise<Headers> {
  const headers = new Headers(typeof extra === "function" ? await extra() : extra);
  for (const name of OWN_HEADERS) headers.delete(name);
  for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
  if (auth) {
    let token: string | undefined;
    try {
      token = await auth.token();
    } catch (cause) {
      throw new HttpClientError(HttpClientFaultCode.Auth, `The auth provider failed to supply a token: ${String(cause)}`, { cause });
    }
    if (token !== undefined) {
      try {
        assertBearerToken(token, "The auth provider");
      } catch (cause) {
        throw new HttpClientError(HttpClientFaultCode.Auth, (cause as Error).message, { cause });
      }
      headers.set("authorization", `Bearer ${token}`);
    }
  }
  return headers;
}

function refusedStatus(response: Response): 401 | 403 | undefined {
  if (response.status === 401) return 401;
  if (response.status === 403 && INSUFFICIENT_SCOPE.test(response.headers.get("www-authenticate") ?? "")) return 403;
  return undefined;
}

/** Creates the requester shared by every request of one transport. */
export function createRequester(options: RequesterOptions): Requester {
  const fetchImpl = options.fetch ?? globalFetch();
  const { auth } = options;

  async function attempt(request: HttpRequest): Promise<Response> {
    const headers = await buildHeaders(request, options.headers, auth);
    const init: RequestInit = { method: request.method, headers, signal: request.signal };
    if (request.body !== undefined) init.body = request.body;
    try {
      return await fetchImpl(request.url, init);
    } catch (cause) {
      if (request.signal.aborted) {
        throw new HttpClientError(HttpClientFaultCode.Closed, `${request.method} ${request.url.href} was aborted: the transport is closing`, { cause });
      }
      throw new HttpClientError(
        HttpClientFaultCode.Network,
        `${request.method} ${request.url.href} failed before any answer (${String((cause as Error)?.message ?? cause)}): check that the server runs and the URL is right`,
        { cause },
      );
    }
  }

  return async (request) => {
    const response = await attempt(request);
    const status = auth ? refusedStatus(response) : undefined;
    if (!auth || status === undefined) return response;
    const challenge = response.headers.get("www-authenticate") ?? undefined;
    const retry = await auth.unauthorized({ status, challenge, url: request.url, signal: request.signal });
    if (!retry) return response;
    await discardBody(response);
    return attempt(request);
  };
}
