/**
 * The one way a tool fails the `tools/call` request itself instead of returning an `isError`
 * result (MCP 2025-11-25 server/tools "Error Handling": protocol errors are for unknown tools,
 * invalid arguments and server errors; a tool's own failure is a result the model can read).
 */
import { JsonRpcError } from "@proto/jsonrpc";

/**
 * A JSON-RPC error a handler throws on purpose, to answer its request with exactly that
 * `{ code, message, data }`: thrown from a tool, it becomes the `tools/call` JSON-RPC error,
 * where any other error (a plain `JsonRpcError` included, such as the client's error for a
 * refused `ctx.sample`) becomes an `isError` result. From other handlers (prompts, resources,
 * completions) every `JsonRpcError` reaches the client as is, this one too.
 *
 * `ctx.urlElicitationRequired()` returns one (-32042); under 2026-07-28 a missing client
 * capability is one (-32021 with `data.requiredCapabilities`, as the spec requires), and so is
 * a malformed `inputResponses` answer (-32602).
 */
export class ProtocolError extends JsonRpcError {
  /** Creates the error; `code` must be an integer (see `JsonRpcError`). */
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
  }

  /** The same error as a `ProtocolError` (a `ProtocolError` is returned as is). */
  static of(error: JsonRpcError): ProtocolError {
    return error instanceof ProtocolError ? error : new ProtocolError(error.code, error.message, error.data);
  }
}
