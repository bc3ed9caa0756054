/**
 * The codec: bytes or text in, a validated payload (or the error to answer with) out.
 * `decode` never throws. See the package README for the limits and their defaults.
 */
import type { JsonRpcFailure, JsonRpcPayload } from "./types";

/** Limits applied by `decode`, each refused before `JSON.parse` runs where it can be. */
export interface DecodeLimits {
  /** Largest accepted message in bytes (UTF-8). Default 4 MiB (4,194,304). */
  readonly maxMessageBytes?: number;
  /** Deepest accepted nesting of arrays and objects. Default 64. */
  readonly maxDepth?: number;
  /** Most messages accepted in one batch. Default 100. */
  readonly maxBatch?: number;
}

/**
 * What `decode` returns.
 * - `ok: true`: `payload` holds the valid message, or the valid elements of a batch;
 *   `invalid` holds one error response for each invalid batch element (empty otherwise).
 *   A batch whose elements are all invalid has an empty `payload` array.
 * - `ok: false`: the whole frame is refused; answer with `error` (id null unless the
 *   request's id could be read).
 */
export type DecodeResult =
  | { readonly ok: true; readonly payload: JsonRpcPayload; readonly invalid: readonly JsonRpcFailure[] }
  | { readonly ok: false; readonly error: JsonRpcFailure };

/** Decodes one frame. Never throws, on any input. */
export function decode(input: string | Uint8Array, limits?: DecodeLimits): DecodeResult {
  void input;
  void limits;
  throw new Error("not implemented yet");
}

/** Encodes a payload for the wire. */
export function encode(payload: JsonRpcPayload): string {
  return JSON.stringify(payload);
}
