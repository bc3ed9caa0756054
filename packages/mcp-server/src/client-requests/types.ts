/**
 * Types of the requests a server makes of its client (MCP 2025-11-25, client/sampling,
 * client/elicitation, client/roots).
 */
import { brandError } from "@proto/jsonrpc";
import type { JsonRpcParams, RequestOptions } from "@proto/jsonrpc";
import type { ClientCapabilities } from "@proto/mcp-protocol";
import { ServerFaultCode } from "../fault-codes";

/** Options of one request to the client. */
export interface ClientRequestOptions {
  /** Aborts the request (a `notifications/cancelled` goes to the client). A request context's own signal always applies too. */
  readonly signal?: AbortSignal;
  /** Milliseconds to wait for the answer; 0 for none. Default: the server's request timeout (60 s). People are slow: raise it for sampling and elicitation that wait for a human. */
  readonly timeoutMs?: number;
  /**
   * The key of this request in an `input_required` result when it runs under 2026-07-28 (unique
   * within the call; 1-128 characters). Default `<sample|elicit|roots>-<n>` in call order.
   * Ignored in 2025 sessions, where the request goes to the client as a JSON-RPC request.
   */
  readonly inputKey?: string;
}

/** Who a client request goes to: a request context (related to that request) or a session. */
export interface ClientTarget {
  readonly clientCapabilities: ClientCapabilities;
  /** The protocol version the request runs under (undefined before `initialize`). */
  readonly protocolVersion: string | undefined;
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
}

/** @deprecated Merged into `ServerFaultCode` (one table of string fault codes per package); this alias goes in the next major. */
export const ClientRequestFault = { MalformedResult: ServerFaultCode.MalformedResult } as const;
/** @deprecated Use `typeof ServerFaultCode.MalformedResult`. */
export type ClientRequestFault = typeof ServerFaultCode.MalformedResult;

/** The client answered a server request with a result the spec does not allow (a bad sampling result, elicitation content outside the schema). */
export class MalformedResultError extends Error {
  override readonly name = "MalformedResultError";
  /** `MALFORMED_RESULT` (`ServerFaultCode.MalformedResult`). */
  readonly code: typeof ServerFaultCode.MalformedResult = ServerFaultCode.MalformedResult;
  /** The method whose result was malformed. */
  readonly method: string;
  /** Creates the error; `message` says what was wrong. */
  constructor(method: string, message: string) {
    super(`The client answered ${method} with a malformed result: ${message}`);
    this.method = method;
  }
}

brandError(MalformedResultError, "@proto/mcp-server:MalformedResultError");
