/**
 * MCP error codes and the errors built on them (MCP 2025-11-25: server/resources "Error
 * Handling", client/elicitation "URL Elicitation Required Error"; 2026-07-28:
 * `UnsupportedProtocolVersionError`).
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { ClientCapabilities } from "./types/capabilities";
import type { ElicitRequestURLParams } from "./types/elicitation";
import { SUPPORTED_PROTOCOL_VERSIONS } from "./versions";

/** JSON-RPC's reserved codes plus the ones MCP assigns. */
export const McpErrorCode = {
  ...JsonRpcErrorCode,
  /** `resources/read` of a URI the server does not know. */
  ResourceNotFound: -32002,
  /** The request needs the user to complete a URL-mode elicitation first; `data.elicitations` lists them. */
  UrlElicitationRequired: -32042,
  /** HTTP headers disagree with the body (2026-07-28). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the client did not declare (2026-07-28). */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol version is not served; `data: { supported, requested }` (2026-07-28). */
  UnsupportedProtocolVersion: -32022,
  /** The draft number of the unsupported-version error; recognised, never sent. */
  UnsupportedProtocolVersionDraft: -32004,
} as const;

/** One of the error codes above. */
export type McpErrorCode = (typeof McpErrorCode)[keyof typeof McpErrorCode];

/** The `data` of an unsupported-protocol-version error. */
export interface UnsupportedVersionData {
  /** Versions the server serves; the client picks one of them and retries. */
  readonly supported: readonly string[];
  /** The version the client asked for. */
  readonly requested: string;
}

/** The -32022 error for a request made under a version the server does not serve. */
export function createUnsupportedVersionError(
  requested: string,
  supported: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS,
): JsonRpcError {
  const data: UnsupportedVersionData = { supported: [...supported], requested };
  return new JsonRpcError(
    McpErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version "${requested}"; supported: ${supported.join(", ")}`,
    data,
  );
}

/**
 * The -32600 answered to each request of a JSON-RPC batch under a version without batches (every
 * revision but 2025-03-26; `allowsBatches`). Every transport answers a refused batch the same
 * way: one array holding this error for each request of the batch, with its id; notifications in
 * it are ignored.
 */
export function createBatchRefusedError(version: string): JsonRpcError {
  return new JsonRpcError(
    McpErrorCode.InvalidRequest,
    `Invalid Request: JSON-RPC batches are not allowed under protocol version ${version.slice(0, 64)} (only 2025-03-26 has them); send each request on its own`,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True when an error (a `JsonRpcError`, or a raw `{ code, message, data }` object) says the
 * protocol version is not served: code -32022, the draft -32004, or any error whose
 * `data.supported` is an array of strings. Read the versions with `unsupportedVersionData`.
 */
export function isUnsupportedVersionError(error: unknown): boolean {
  return unsupportedVersionData(error) !== undefined;
}

/** The `{ supported, requested }` of an unsupported-version error, or `undefined` when `error` is not one. */
export function unsupportedVersionData(error: unknown): UnsupportedVersionData | undefined {
  if (!isRecord(error) && !(error instanceof JsonRpcError)) return undefined;
  const { code, data } = error as { code?: unknown; data?: unknown };
  const supported = isRecord(data) && Array.isArray(data.supported) && data.supported.every((v) => typeof v === "string")
    ? (data.supported as string[])
    : undefined;
  const requested = isRecord(data) && typeof data.requested === "string" ? data.requested : "";
  if (supported !== undefined) return { supported, requested };
  if (code === McpErrorCode.UnsupportedProtocolVersion || code === McpErrorCode.UnsupportedProtocolVersionDraft) {
    return { supported: [], requested };
  }
  return undefined;
}

/**
 * The error for a resource URI the server does not know, with `data.uri`: -32002 on the
 * session-era wire, -32602 when `modern` (2026-07-28 server/resources "Error Handling").
 */
export function createResourceNotFoundError(uri: string, modern = false): JsonRpcError {
  const code = modern ? McpErrorCode.InvalidParams : McpErrorCode.ResourceNotFound;
  return new JsonRpcError(code, `Resource not found: ${uri}`, { uri });
}

/** The -32020 error for HTTP headers that are missing, malformed or disagree with the body (2026-07-28 Streamable HTTP). */
export function createHeaderMismatchError(detail: string): JsonRpcError {
  return new JsonRpcError(McpErrorCode.HeaderMismatch, `Header mismatch: ${detail}`);
}

/** The `data` of a -32021 error. */
export interface MissingCapabilityData {
  /** The client capabilities the request needs, e.g. `{ elicitation: {} }`. */
  readonly requiredCapabilities: ClientCapabilities;
}

/**
 * The -32021 error for a request that needs a client capability the request's own
 * `clientCapabilities` did not declare (2026-07-28 basic/patterns/mrtr).
 */
export function createMissingCapabilityError(requiredCapabilities: ClientCapabilities, message?: string): JsonRpcError {
  const names = Object.keys(requiredCapabilities).join(", ");
  const data: MissingCapabilityData = { requiredCapabilities };
  return new JsonRpcError(
    McpErrorCode.MissingRequiredClientCapability,
    message ?? `Missing required client capability: ${names}; declare it in _meta["io.modelcontextprotocol/clientCapabilities"] and retry`,
    data,
  );
}

/** The -32042 error telling the client which URL-mode elicitations the user must complete first. */
export function createUrlElicitationRequiredError(
  elicitations: readonly ElicitRequestURLParams[],
  message = "This request requires more information from the user.",
): JsonRpcError {
  return new JsonRpcError(McpErrorCode.UrlElicitationRequired, message, { elicitations: [...elicitations] });
}
