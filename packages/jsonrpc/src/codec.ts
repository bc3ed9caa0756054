/**
 * The codec: bytes or text in, a validated payload (or the error to answer with) out.
 * `decode` never throws on any input. See the package README for the limits and their
 * defaults. Order of the guards, cheapest first: size, UTF-8, depth, `JSON.parse`,
 * structure, prototype keys.
 */
import type { JsonRpcFailure, JsonRpcId, JsonRpcMessage, JsonRpcPayload } from "./types";
import { JsonRpcErrorCode } from "./errors";
import { isDepthWithin, isDepthWithinBytes } from "./depth";
import { readTopLevel } from "./find-id";
import { findPrototypeKey, formatPath, mayHoldPrototypeKey } from "./proto-guard";
import type { PrototypeKeyFound } from "./proto-guard";
import { checkMessage, invalidRequest, isValidId } from "./validate";
import { checkLimit, DEFAULT_MAX_BATCH, DEFAULT_MAX_DEPTH, DEFAULT_MAX_MESSAGE_BYTES, isWellFormedText, utf8ByteLength } from "./limits";
import type { DecodeLimits } from "./limits";

export type { DecodeLimits } from "./limits";

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
  | {
      readonly ok: false;
      readonly error: JsonRpcFailure;
      /**
       * Set when the refused frame must not be answered: it was too large to read and its
       * top level is an object with no `method`, so it is most likely a response. Answering
       * it could make two peers with small limits refuse each other's errors forever.
       */
      readonly silent?: boolean;
      /**
       * With `silent`: the id of the response that was dropped, when it could be read. The local
       * side fails the request it answers at once (`deliverFrame` reports it), instead of letting
       * that request wait for its timeout.
       */
      readonly responseId?: JsonRpcId;
    };

const NONE: readonly JsonRpcFailure[] = Object.freeze([]);
/** How much of an oversized frame is searched for the id of the error reply. */
const ID_WINDOW = 64 * 1024;
/** Frames from this many bytes are depth-scanned before UTF-8 decoding. */
const BYTE_SCAN_FROM = 64 * 1024;

let utf8: TextDecoder | undefined;

function refuse(error: JsonRpcFailure): DecodeResult {
  return { ok: false, error };
}

function parseError(reason: string): DecodeResult {
  return refuse({ jsonrpc: "2.0", id: null, error: { code: JsonRpcErrorCode.ParseError, message: `Parse error: ${reason}` } });
}

function tooLarge(text: string, max: number): DecodeResult & { ok: false } {
  const top = readTopLevel(text, ID_WINDOW);
  const error = invalidRequest(top.id, `the message exceeds maxMessageBytes (${max} bytes)`);
  if (!top.object || top.call) return { ok: false, error };
  return top.responseId === null ? { ok: false, error, silent: true } : { ok: false, error, silent: true, responseId: top.responseId };
}

/** The first ID_WINDOW bytes as text (lossy), to read the id of a frame refused unread. */
function prefixText(input: Uint8Array): string {
  return new TextDecoder().decode(input.subarray(0, ID_WINDOW));
}

/**
 * The refusal of a frame too large to read, from its first bytes alone: what `decode` answers
 * for a frame over `maxMessageBytes`, for a framer that drops such a frame before holding it
 * whole (the stdio line decoder). A call is answered -32600 with its id when the id is in the
 * first 64 KiB; a response is `silent`, with its `responseId`. Pass at least the first 64 KiB
 * (fewer when the frame started shorter); `maxMessageBytes` is the limit named in the error.
 */
export function refuseOversized(prefix: string | Uint8Array, maxMessageBytes: number): DecodeResult & { ok: false } {
  return tooLarge(typeof prefix === "string" ? prefix : prefixText(prefix), maxMessageBytes);
}

function tooDeep(text: string, maxDepth: number): DecodeResult {
  return refuse(invalidRequest(readTopLevel(text, ID_WINDOW).id, `nesting exceeds maxDepth (${maxDepth} levels)`));
}

function bytesToText(input: Uint8Array, max: number, maxDepth: number): string | DecodeResult {
  if (input.byteLength > max) return tooLarge(prefixText(input), max);
  // A large frame is scanned as bytes, so a deep one is refused without paying for its UTF-8
  // decoding; a small one is cheaper to scan as text (per-call cost of typed-array indexOf).
  const large = input.byteLength > BYTE_SCAN_FROM;
  if (large && !isDepthWithinBytes(input, maxDepth)) return tooDeep(prefixText(input), maxDepth);
  utf8 ??= new TextDecoder("utf-8", { fatal: true });
  let text: string;
  try {
    text = utf8.decode(input);
  } catch {
    return parseError("the bytes are not valid UTF-8");
  }
  return large || isDepthWithin(text, maxDepth) ? text : tooDeep(text, maxDepth);
}

function checkTextSize(text: string, max: number): DecodeResult | undefined {
  // UTF-8 needs 1 to 3 bytes per UTF-16 unit, so the exact count runs only in between.
  if (text.length > max || (text.length * 3 > max && utf8ByteLength(text, max) > max)) return tooLarge(text, max);
  if (!isWellFormedText(text)) return parseError("the text holds a lone surrogate (not well-formed Unicode)");
  return undefined;
}

/** Decodes one frame. Never throws on any input; throws a `TypeError` only for invalid `limits`. */
export function decode(input: string | Uint8Array, limits?: DecodeLimits): DecodeResult {
  const maxBytes = limits?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const maxDepth = limits?.maxDepth ?? DEFAULT_MAX_DEPTH;
  const maxBatch = limits?.maxBatch ?? DEFAULT_MAX_BATCH;
  if (limits !== undefined) checkLimits(limits);
  try {
    return decodeText(input, maxBytes, maxDepth, maxBatch);
  } catch {
    return parseError("the frame could not be read");
  }
}

function checkLimits(limits: DecodeLimits): void {
  checkLimit("maxMessageBytes", limits.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES);
  checkLimit("maxDepth", limits.maxDepth, DEFAULT_MAX_DEPTH);
  checkLimit("maxBatch", limits.maxBatch, DEFAULT_MAX_BATCH);
}

function decodeText(input: string | Uint8Array, maxBytes: number, maxDepth: number, maxBatch: number): DecodeResult {
  let text: string;
  if (typeof input === "string") {
    const refused = checkTextSize(input, maxBytes);
    if (refused) return refused;
    text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
    if (!isDepthWithin(text, maxDepth)) return tooDeep(text, maxDepth);
  } else {
    const decoded = bytesToText(input, maxBytes, maxDepth);
    if (typeof decoded !== "string") return decoded;
    text = decoded;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseError("the text is not valid JSON");
  }
  const guard = mayHoldPrototypeKey(text);
  return Array.isArray(value) ? checkBatch(value, maxBatch, guard) : checkSingle(value, guard);
}

function checkOne(value: unknown, guard: boolean): JsonRpcFailure | undefined {
  const failure = checkMessage(value);
  if (failure !== undefined || !guard) return failure;
  const found = findPrototypeKey(value);
  if (found === undefined) return undefined;
  return prototypeKeyFailure(value as Record<string, unknown>, found);
}

/**
 * A prototype key inside a call's `params` is invalid params (-32602): the message itself is a
 * well-formed request; anywhere else (the top level, a response) the message is invalid (-32600).
 */
function prototypeKeyFailure(message: Record<string, unknown>, found: PrototypeKeyFound): JsonRpcFailure {
  const isCall = message.method !== undefined;
  const id = isCall && isValidId(message.id) ? message.id : null;
  const where = found.path.length === 0 ? "at the top level" : `in ${formatPath(found.path)}`;
  const reason = `the key "${found.key}" ${where} is not accepted (prototype pollution guard); rename or remove it`;
  if (!isCall || found.path[0] !== "params") return invalidRequest(id, reason);
  return { jsonrpc: "2.0", id, error: { code: JsonRpcErrorCode.InvalidParams, message: `Invalid params: ${reason}` } };
}

function checkSingle(value: unknown, guard: boolean): DecodeResult {
  const failure = checkOne(value, guard);
  return failure === undefined ? { ok: true, payload: value as JsonRpcMessage, invalid: NONE } : refuse(failure);
}

function checkBatch(batch: unknown[], maxBatch: number, guard: boolean): DecodeResult {
  if (batch.length === 0) return refuse(invalidRequest(null, "an empty batch is not a request"));
  if (batch.length > maxBatch) return refuse(invalidRequest(null, `the batch holds ${batch.length} messages, more than maxBatch (${maxBatch})`));
  let valid: JsonRpcMessage[] | undefined;
  let invalid: JsonRpcFailure[] | undefined;
  for (let i = 0; i < batch.length; i++) {
    const failure = checkOne(batch[i], guard);
    if (failure === undefined) {
      if (invalid !== undefined) (valid ??= []).push(batch[i] as JsonRpcMessage);
    } else {
      if (invalid === undefined) {
        invalid = [];
        valid = batch.slice(0, i) as JsonRpcMessage[];
      }
      invalid.push(failure);
    }
  }
  if (invalid === undefined) return { ok: true, payload: batch as JsonRpcMessage[], invalid: NONE };
  return { ok: true, payload: valid ?? [], invalid };
}

/** JSON texts of `_meta` objects shared by many requests (`encodeOnce`). */
const sharedTexts = new WeakMap<object, string>();

/**
 * Freezes `meta` and has `encode` reuse its JSON text whenever it is the `_meta` of a request's
 * (or notification's) params: a `_meta` sent with every request (a 2026-07-28 envelope, ~350
 * bytes of nested keys) is then serialised once, not once per request (~1.1 µs a request in
 * Node 20). `meta` and everything it holds must not change afterwards (only `meta` itself is
 * frozen here). Returns `meta`.
 */
export function encodeOnce<T extends object>(meta: T): Readonly<T> {
  if (!sharedTexts.has(meta)) sharedTexts.set(Object.freeze(meta), JSON.stringify(meta));
  return meta;
}

/** The shared text of the `_meta` of `params`, when `encodeOnce` made one. */
function sharedMetaText(params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null ? sharedTexts.get(meta) : undefined;
}

const own = (value: object, key: string): boolean => Object.prototype.hasOwnProperty.call(value, key);

/**
 * A call whose params' `_meta` has a shared text, written key by key around it: the same JSON
 * as `JSON.stringify` (`_meta` last); undefined for anything but a plain call (other top-level
 * keys, `toJSON`, array params), which is stringified whole.
 */
function encodeCall(message: Record<string, unknown>, params: Record<string, unknown>, metaText: string): string | undefined {
  if (message.jsonrpc !== "2.0" || typeof message.method !== "string" || Array.isArray(params) || typeof message.toJSON === "function" || typeof params.toJSON === "function") return undefined;
  for (const key in message) if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return undefined;
  const id = message.id === undefined || !own(message, "id") ? "" : `"id":${JSON.stringify(message.id)},`;
  let text = `{"jsonrpc":"2.0",${id}"method":${JSON.stringify(message.method)},"params":{`;
  for (const key in params) {
    if (key === "_meta" || !own(params, key)) continue;
    const value = JSON.stringify(params[key]);
    if (value !== undefined) text += `${JSON.stringify(key)}:${value},`;
  }
  return `${text}"_meta":${metaText}}}`;
}

/**
 * Encodes a payload for the wire (`JSON.stringify`). Throws a `TypeError` when the payload
 * cannot be serialised (a `BigInt`, a cycle); a `Peer` catches that and answers -32603.
 * `undefined` members are dropped and non-finite numbers become `null`, as JSON requires.
 * A `_meta` given to `encodeOnce` is written from its shared text.
 */
export function encode(payload: JsonRpcPayload): string {
  const params = (payload as { params?: unknown }).params;
  const metaText = sharedMetaText(params);
  if (metaText !== undefined) {
    const text = encodeCall(payload as unknown as Record<string, unknown>, params as Record<string, unknown>, metaText);
    if (text !== undefined) return text;
  }
  return JSON.stringify(payload);
}
