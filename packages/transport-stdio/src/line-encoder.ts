/**
 * The newline framer, outbound half: a payload becomes one line of JSON text. `JSON.stringify`
 * escapes every control character inside strings, so the text never holds a raw `\n` and one
 * line is always exactly one frame (MCP spec 2025-11-25, "Transports > stdio": messages are
 * delimited by newlines and MUST NOT contain embedded newlines).
 */
import { encode } from "@proto/jsonrpc";
import type { JsonRpcPayload } from "@proto/jsonrpc";

/**
 * Encodes one payload (a message or a batch) as a line: its JSON text followed by `\n`.
 * Throws a `TypeError` when the payload cannot be serialised (a `BigInt`, a cycle), so a
 * transport can reject that one send and go on.
 */
export function encodeLine(payload: JsonRpcPayload): string {
  let text: string | undefined;
  try {
    text = encode(payload);
  } catch (error) {
    throw new TypeError(`The payload cannot be serialised as JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof text !== "string") throw new TypeError("The payload cannot be serialised as JSON: it encodes to nothing");
  return text + "\n";
}
