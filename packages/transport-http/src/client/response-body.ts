/**
 * Reading response bodies with a cap, and turning an HTTP error answer into an
 * `HttpClientError` that says what happened and what to do.
 */
import type { JsonRpcErrorObject } from "@proto/jsonrpc";
import { HttpClientError, HttpClientFaultCode } from "./http-error";

/** How much of an error body is read to find a JSON-RPC error or a message. */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * Reads a whole body into one byte array, refusing (and cancelling the stream) once it
 * passes `maxBytes`. Chunks are joined once at the end, never on every read.
 */
export async function readCappedBytes(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw oversized(maxBytes);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw oversized(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

function oversized(maxBytes: number): HttpClientError {
  return new HttpClientError(
    HttpClientFaultCode.Oversized,
    `The server's answer exceeds maxMessageBytes (${maxBytes} bytes); raise the option if such messages are expected`,
  );
}

/** Discards a body we will not read, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function findRpcError(text: string): JsonRpcErrorObject | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const candidate = Array.isArray(parsed) ? parsed[0] : parsed;
    if (typeof candidate !== "object" || candidate === null || !("error" in candidate)) return undefined;
    const error: unknown = candidate.error;
    if (typeof error !== "object" || error === null) return undefined;
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code !== "number" || typeof message !== "string") return undefined;
    return data === undefined ? { code, message } : { code, message, data };
  } catch {
    return undefined;
  }
}

const ADVICE: { readonly [status: number]: string } = {
  400: "the server refused the request: check the protocol version it supports and the session header",
  401: "the server requires authentication: pass an `auth` provider (staticToken, commandToken or an OAuth provider)",
  403: "the server refused access: the token may lack a scope, or the server refused this Host or Origin",
  404: "nothing answers at this URL: check the endpoint path (often /mcp)",
  405: "the server does not accept this method at this URL",
  406: "the server refused the Accept header: it may not speak Streamable HTTP",
  413: "the message is larger than the server accepts",
  415: "the server refused the content type",
  429: "the server is rate limiting: retry later",
};

function adviceFor(status: number): string {
  return ADVICE[status] ?? (status >= 500 ? "the server failed: retry later or check its logs" : "unexpected status");
}

/**
 * Builds the error for a non-2xx answer: the status, the JSON-RPC error of the body when
 * present (or the start of a text body), and advice. Consumes the body (at most 16 KiB).
 */
export async function errorFromResponse(method: string, url: URL, response: Response): Promise<HttpClientError> {
  let text = "";
  try {
    const bytes = await readCappedBytes(response, ERROR_BODY_BYTES);
    text = new TextDecoder().decode(bytes);
  } catch {
    text = "";
  }
  const rpcError = findRpcError(text);
  const said = rpcError
    ? `: JSON-RPC error ${rpcError.code} "${rpcError.message}"`
    : text.trim() !== ""
      ? `: "${text.trim().slice(0, 200)}"`
      : "";
  const statusText = response.statusText ? ` ${response.statusText}` : "";
  const message = `${method} ${url.href} answered ${response.status}${statusText}${said} (${adviceFor(response.status)})`;
  return new HttpClientError(HttpClientFaultCode.HttpStatus, message, {
    status: response.status,
    ...(rpcError ? { rpcError } : {}),
  });
}
