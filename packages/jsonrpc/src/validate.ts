/**
 * Strict structure checks of one parsed message (JSON-RPC 2.0 sections 4 and 5). Keys are
 * case-sensitive; unknown extra members are allowed (the spec does not forbid them), but a
 * message is either a call (`method`) or a response (`result`/`error`), never both.
 */
import type { JsonRpcFailure, JsonRpcId } from "./types";
import { JsonRpcErrorCode } from "./errors";
import { DEFAULT_MAX_ID_LENGTH } from "./limits";

/** Builds the -32600 reply for an invalid message, with the reason after the standard text. */
export function invalidRequest(id: JsonRpcId | null, reason: string): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${reason}` } };
}

/**
 * True for an id a message may carry: a string of at most `DEFAULT_MAX_ID_LENGTH` characters or
 * a safe integer (|id| <= 2^53 - 1). JSON-RPC 2.0 section 4 says numbers SHOULD NOT have
 * fractional parts and MCP's `RequestId` is `string | integer`; a number past 2^53 cannot be
 * echoed exactly once parsed (9007199254740993 reads as ...992), so it would answer another
 * request. The cap keeps every copy of an id (in-flight tables, event stores, replies) small.
 */
export function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === "string" ? id.length <= DEFAULT_MAX_ID_LENGTH : Number.isSafeInteger(id);
}

const ID_RULE =
  `a string of at most ${DEFAULT_MAX_ID_LENGTH} characters or an integer between -(2^53 - 1) and 2^53 - 1 ` +
  "(a fractional or larger number cannot be echoed exactly; send such an id as a string)";

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkCall(message: Record<string, unknown>): string | undefined {
  if (typeof message.method !== "string") return "`method` must be a string";
  const id = message.id;
  if (id !== undefined && !isValidId(id)) return `\`id\` must be ${ID_RULE}`;
  const params = message.params;
  if (params !== undefined && (typeof params !== "object" || params === null)) {
    return "`params` must be an object or an array when present";
  }
  if (message.result !== undefined || message.error !== undefined) {
    return "a message cannot carry `method` and `result`/`error` together";
  }
  return undefined;
}

function checkErrorObject(error: unknown): string | undefined {
  if (!isPlainRecord(error)) return "`error` must be an object";
  if (!Number.isInteger(error.code)) return "`error.code` must be an integer";
  if (typeof error.message !== "string") return "`error.message` must be a string";
  return undefined;
}

function checkResponse(message: Record<string, unknown>): string | undefined {
  const hasResult = message.result !== undefined;
  const hasError = message.error !== undefined;
  if (hasResult === hasError) {
    return hasResult ? "a response cannot carry both `result` and `error`" : "a message needs `method`, `result` or `error`";
  }
  const id = message.id;
  if (hasResult) return isValidId(id) ? undefined : `a success response needs an \`id\` that is ${ID_RULE}`;
  if (id !== null && !isValidId(id)) return `\`id\` must be ${ID_RULE}, or null`;
  return checkErrorObject(message.error);
}

/**
 * Checks one parsed value as a JSON-RPC message. Returns undefined when it is valid, or the
 * error response to answer with. The error carries the message's id only when the message
 * is a call with a readable id; a malformed response is answered with id null, so the
 * reply can never be mistaken for the answer to one of the other side's own requests.
 */
export function checkMessage(value: unknown): JsonRpcFailure | undefined {
  if (!isPlainRecord(value)) return invalidRequest(null, "a message must be a JSON object");
  const isCall = value.method !== undefined;
  const reason = value.jsonrpc !== "2.0" ? '`jsonrpc` must be exactly "2.0"' : isCall ? checkCall(value) : checkResponse(value);
  if (reason === undefined) return undefined;
  return invalidRequest(isCall && isValidId(value.id) ? value.id : null, reason);
}
