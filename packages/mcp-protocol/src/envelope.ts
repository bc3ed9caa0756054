/**
 * The per-request envelope of the stateless revision (MCP 2026-07-28 basic/index, "Request
 * metadata"): a request is modern when its `params._meta` has the protocol-version key (the
 * claim), whatever the method or value; the envelope is then checked before anything else.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import { MetaKey } from "./meta";
import { LOGGING_LEVELS } from "./methods";
import type { Implementation, ProgressToken } from "./types/base";
import type { ClientCapabilities } from "./types/capabilities";
import type { LoggingLevel } from "./types/logging";

/** The protocol context one modern request carries. */
export interface RequestEnvelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  readonly logLevel?: LoggingLevel;
  readonly progressToken?: ProgressToken;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * True when `params._meta` holds the key `io.modelcontextprotocol/protocolVersion` (any value):
 * the request is then served under the stateless rules. Never compares version strings.
 */
export function hasProtocolClaim(params: unknown): boolean {
  if (!isRecord(params)) return false;
  const meta = params._meta;
  return isRecord(meta) && Object.prototype.hasOwnProperty.call(meta, MetaKey.ProtocolVersion);
}

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`);
}

const CAPABILITY_OBJECTS = ["experimental", "extensions", "roots", "sampling", "elicitation"] as const;

function checkCapabilities(value: unknown): ClientCapabilities {
  if (!isRecord(value)) {
    throw invalid(`_meta["${MetaKey.ClientCapabilities}"] is required and must be an object ({} declares nothing)`);
  }
  for (const key of CAPABILITY_OBJECTS) {
    if (value[key] !== undefined && !isRecord(value[key])) throw invalid(`clientCapabilities.${key} must be an object`);
  }
  return value as ClientCapabilities;
}

function checkClientInfo(value: unknown): Implementation | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || typeof value.name !== "string" || typeof value.version !== "string") {
    throw invalid(`_meta["${MetaKey.ClientInfo}"] must be an object with string name and version`);
  }
  return value as unknown as Implementation;
}

function checkLogLevel(value: unknown): LoggingLevel | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !(LOGGING_LEVELS as readonly string[]).includes(value)) {
    throw invalid(`_meta["${MetaKey.LogLevel}"] must be one of ${LOGGING_LEVELS.join(", ")}`);
  }
  return value as LoggingLevel;
}

/**
 * True for a progress token MCP allows (`ProgressToken = string | integer`): a string or a safe
 * integer, the rule of a request id (a number past 2^53 would come back altered).
 */
export function isProgressToken(value: unknown): value is ProgressToken {
  return typeof value === "string" || Number.isSafeInteger(value);
}

function checkProgressToken(value: unknown): ProgressToken | undefined {
  if (value === undefined || isProgressToken(value)) return value;
  throw invalid(`_meta.progressToken must be a string or an integer between -(2^53 - 1) and 2^53 - 1, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (typeof value === "number") return String(value);
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * The `_meta` rule of every request of either era (MCP 2025-11-25 basic/index "`_meta`"): when
 * `params._meta` is present it is an object, and its `progressToken`, when present, is a string
 * or a safe integer. Throws -32602 (`JsonRpcError`) naming what is wrong; returns nothing.
 * `parseRequestEnvelope` applies it too, so a modern request meets the same rule first.
 */
export function checkRequestMeta(params: unknown): void {
  if (!isRecord(params)) return;
  const meta = params._meta;
  if (meta === undefined) return;
  if (!isRecord(meta)) throw invalid(`params._meta must be an object when present, got ${describe(meta)}`);
  checkProgressToken(meta[MetaKey.ProgressToken]);
}

/**
 * Reads and checks the envelope of a request that has the claim: -32602 (`JsonRpcError`)
 * when `params` or `_meta` is not an object, the version is not a string, `clientCapabilities`
 * is missing or not an object, or `clientInfo`, `logLevel` or `progressToken` is malformed.
 * Whether the version is served is the caller's next check (-32022).
 */
export function parseRequestEnvelope(params: unknown): RequestEnvelope {
  if (!isRecord(params) || !isRecord(params._meta)) throw invalid("a request under 2026-07-28 needs params._meta with its protocol context");
  const meta = params._meta;
  const protocolVersion = meta[MetaKey.ProtocolVersion];
  if (typeof protocolVersion !== "string") throw invalid(`_meta["${MetaKey.ProtocolVersion}"] must be a string`);
  const clientCapabilities = checkCapabilities(meta[MetaKey.ClientCapabilities]);
  const clientInfo = checkClientInfo(meta[MetaKey.ClientInfo]);
  const logLevel = checkLogLevel(meta[MetaKey.LogLevel]);
  const progressToken = checkProgressToken(meta[MetaKey.ProgressToken]);
  // plain assignments, not conditional spreads: this runs on every modern request
  const envelope: { -readonly [K in keyof RequestEnvelope]: RequestEnvelope[K] } = { protocolVersion, clientCapabilities };
  if (clientInfo !== undefined) envelope.clientInfo = clientInfo;
  if (logLevel !== undefined) envelope.logLevel = logLevel;
  if (progressToken !== undefined) envelope.progressToken = progressToken;
  return envelope;
}
