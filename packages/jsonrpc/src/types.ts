/**
 * JSON-RPC 2.0 message types (https://www.jsonrpc.org/specification).
 *
 * Everything here is plain data: what `decode` returns and what `encode` accepts.
 */

/** A request id. JSON-RPC allows null only in error responses to unreadable requests. */
export type JsonRpcId = string | number;

/** Request or notification parameters: by name (object) or by position (array). */
export type JsonRpcParams = { readonly [key: string]: unknown } | readonly unknown[];

/** A call that expects a response (section 4). */
export interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: JsonRpcParams;
}

/** A call with no id: the receiver never answers it (section 4.1). */
export interface JsonRpcNotification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: JsonRpcParams;
}

/** The error member of an error response (section 5.1). */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A successful response (section 5). */
export interface JsonRpcSuccess {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly result: unknown;
}

/** An error response; `id` is null when the request's id could not be read (section 5). */
export interface JsonRpcFailure {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

/** Either kind of response. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** Any single JSON-RPC message. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** One frame on the wire: a single message, or a batch (section 6) as an array. */
export type JsonRpcPayload = JsonRpcMessage | readonly JsonRpcMessage[];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a message with a `method` and an `id`: it expects a response. */
export function isRequest(message: unknown): message is JsonRpcRequest {
  return isObject(message) && typeof message.method === "string" && "id" in message;
}

/** True for a message with a `method` and no `id`: it must never be answered. */
export function isNotification(message: unknown): message is JsonRpcNotification {
  return isObject(message) && typeof message.method === "string" && !("id" in message);
}

/** True for a response (success or failure): no `method`, and a `result` or an `error`. */
export function isResponse(message: unknown): message is JsonRpcResponse {
  return isObject(message) && !("method" in message) && ("result" in message || "error" in message);
}

/** True for a successful response. */
export function isSuccess(message: unknown): message is JsonRpcSuccess {
  return isResponse(message) && "result" in message;
}

/** True for an error response. */
export function isFailure(message: unknown): message is JsonRpcFailure {
  return isResponse(message) && "error" in message;
}

/** True when the payload is a batch (an array of messages). */
export function isBatch(payload: JsonRpcPayload): payload is readonly JsonRpcMessage[] {
  return Array.isArray(payload);
}
