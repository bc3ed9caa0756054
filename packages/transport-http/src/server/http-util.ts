/**
 * Small HTTP helpers of the core: error answers (a JSON-RPC error with id null, never a stack,
 * MCP 2025-11-25 transports: "The HTTP response body MAY comprise a JSON-RPC error response that
 * has no id") and media-range matching for `Accept` and `Content-Type`.
 */
import type { JsonRpcFailure } from "@proto/jsonrpc";
import type { HttpRefusalCode } from "./errors";
import { HttpFaultCode } from "./errors";
import type { FullAnswer, OutHeaders } from "./io";

/** @deprecated The refusal codes are in `HttpFaultCode` (`Refused`, `SessionNotFound`); this alias goes in the next major. */
export const HttpErrorCode = { Refused: HttpFaultCode.Refused, SessionNotFound: HttpFaultCode.SessionNotFound } as const;
/** @deprecated Use `HttpRefusalCode`. */
export type HttpErrorCode = HttpRefusalCode;

/** The JSON-RPC `error.code` of each refusal (the wire needs an integer). */
const RPC_CODES: { readonly [code in HttpRefusalCode]: number } = { REFUSED: -32000, SESSION_NOT_FOUND: -32001 };

/** `status` with a JSON-RPC error body: the integer code for JSON-RPC, the string code in `data.code`. */
export function errorAnswer(status: number, message: string, headers: OutHeaders = {}, code: HttpRefusalCode = HttpFaultCode.Refused): FullAnswer {
  const body: JsonRpcFailure = { jsonrpc: "2.0", id: null, error: { code: RPC_CODES[code], message, data: { code } } };
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** A decode failure (parse error, invalid request) with its JSON-RPC error. */
export function failureAnswer(status: number, failure: JsonRpcFailure, headers: OutHeaders = {}): FullAnswer {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(failure) };
}

/** True when a step returned an answer (a refusal) instead of its value. */
export function isAnswer(value: unknown): value is FullAnswer {
  return typeof value === "object" && value !== null && typeof (value as Partial<FullAnswer>).status === "number" && "headers" in value;
}

/** True when an `Accept` header admits `type/subtype` (wildcards count; `q=0` excludes). */
export function accepts(accept: string | undefined, mediaType: string): boolean {
  if (accept === undefined) return false;
  const [type] = mediaType.split("/");
  let best = -1;
  let weight = 0;
  for (const range of accept.split(",")) {
    const [rawName, ...params] = range.split(";");
    const name = (rawName ?? "").trim().toLowerCase();
    const specificity = name === mediaType ? 2 : name === `${type}/*` ? 1 : name === "*/*" ? 0 : -1;
    if (specificity <= best) continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith("q="));
    best = specificity;
    weight = q === undefined ? 1 : Number(q.slice(2));
  }
  return best >= 0 && weight > 0;
}

/** True when a `Content-Type` header names `application/json` (parameters such as charset allowed). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semi = contentType.indexOf(";");
  const name = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return name === "application/json";
}
