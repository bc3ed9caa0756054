/**
 * The few HTTP calls OAuth makes, on the Fetch API only (runtime-neutral): JSON GETs for
 * metadata, form and JSON POSTs for the token and registration endpoints. Bodies are read
 * with a byte cap, every call has a timeout, POSTs never follow redirects (credentials must
 * not travel to a place the metadata did not name).
 */
import { abortError, OAuthError, OAuthFaultCode } from "./errors";
import { assertSecureUrl } from "./urls";

/** The `fetch` the provider uses for every OAuth request (inject one for proxies or tests). */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** How the provider makes HTTP requests. */
export interface HttpSettings {
  readonly fetch: FetchLike;
  /** Per-request timeout in milliseconds. */
  readonly timeoutMs: number;
  /** The largest response body read, in bytes. */
  readonly maxBytes: number;
  /** Allow plain http to non-loopback hosts (never by default). */
  readonly allowInsecureHttp: boolean;
}

/** A response whose body has been read and, when it was JSON, parsed. */
export interface HttpResult {
  readonly status: number;
  readonly ok: boolean;
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  readonly json: unknown;
  readonly headers: Headers;
}

/** GETs JSON; a redirect is followed only to a URL that passes the https rule. */
export function getJson(http: HttpSettings, url: URL, failCode: OAuthFaultCode, signal?: AbortSignal): Promise<HttpResult> {
  return call(http, url, { method: "GET", headers: { accept: "application/json" }, redirect: "follow" }, failCode, signal);
}

/** POSTs an `application/x-www-form-urlencoded` body (token endpoint, RFC 6749 §3.2). */
export function postForm(
  http: HttpSettings,
  url: URL,
  form: URLSearchParams,
  headers: Record<string, string>,
  failCode: OAuthFaultCode,
  signal?: AbortSignal,
): Promise<HttpResult> {
  const init: RequestInit = {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: form.toString(),
    redirect: "error",
  };
  return call(http, url, init, failCode, signal);
}

/** POSTs a JSON body (registration endpoint, RFC 7591 §3.1). */
export function postJson(http: HttpSettings, url: URL, body: unknown, failCode: OAuthFaultCode, signal?: AbortSignal): Promise<HttpResult> {
  const init: RequestInit = {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(body),
    redirect: "error",
  };
  return call(http, url, init, failCode, signal);
}

async function call(http: HttpSettings, url: URL, init: RequestInit, failCode: OAuthFaultCode, signal?: AbortSignal): Promise<HttpResult> {
  if (signal?.aborted === true) throw abortError(signal);
  const timeout = AbortSignal.timeout(http.timeoutMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  let response: Response;
  try {
    response = await http.fetch(url, { ...init, signal: combined });
  } catch (cause) {
    throw failure(http, url, failCode, cause, signal, timeout);
  }
  if (response.url !== "" && response.url !== url.href) assertSecureUrl(new URL(response.url), "a redirect to", http.allowInsecureHttp);
  let text: string;
  try {
    text = await readCapped(response, http.maxBytes);
  } catch (cause) {
    if (cause instanceof OAuthError) throw cause;
    throw failure(http, url, failCode, cause, signal, timeout);
  }
  let json: unknown;
  if (text.trim() !== "") {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  return { status: response.status, ok: response.ok, json, headers: response.headers };
}

function failure(http: HttpSettings, url: URL, code: OAuthFaultCode, cause: unknown, signal: AbortSignal | undefined, timeout: AbortSignal): OAuthError {
  if (signal?.aborted === true) return abortError(signal);
  if (timeout.aborted) {
    return new OAuthError(code, `${url.href} did not answer within ${http.timeoutMs} ms; check the network or raise requestTimeoutMs.`, { cause });
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new OAuthError(code, `Request to ${url.href} failed: ${reason}`, { cause });
}

/** Reads a body as UTF-8 text, refusing more than `maxBytes`. */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(response.url, maxBytes);
  }
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(response.url, maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function tooLarge(url: string, maxBytes: number): OAuthError {
  return new OAuthError(OAuthFaultCode.InvalidMetadata, `The response of ${url || "an OAuth endpoint"} is larger than ${maxBytes} bytes; refused.`);
}
