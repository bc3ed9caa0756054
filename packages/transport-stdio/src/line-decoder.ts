/**
 * The newline framer, inbound half: bytes in, decoded frames out. No I/O and Web APIs only
 * (`Uint8Array`, `TextDecoder`), so it runs anywhere and is property-tested on arbitrary
 * chunkings. The MCP stdio transport (spec 2025-11-25, "Transports > stdio") frames each
 * JSON-RPC message as one line of UTF-8 that contains no embedded newline.
 */
import { checkLimit, decode, DEFAULT_MAX_MESSAGE_BYTES, JsonRpcFaultCode, refuseOversized, TransportError } from "@proto/jsonrpc";
import type { DecodeLimits, DecodeResult } from "@proto/jsonrpc";

/** The default `maxLineBytes`: `DEFAULT_MAX_MESSAGE_BYTES` of `@proto/jsonrpc` (4 MiB). */
export const DEFAULT_MAX_LINE_BYTES: number = DEFAULT_MAX_MESSAGE_BYTES;

/** How much of a dropped line is kept to read the id of its refusal (the codec's window). */
const ID_WINDOW = 64 * 1024;

/** Options of `createLineDecoder`. */
export interface LineDecoderOptions {
  /**
   * Longest accepted line in bytes, counting everything before its `\n` (a `\r` included).
   * A longer line is dropped up to its next newline, refused as the codec refuses a message over
   * `maxMessageBytes` (a `frame` event: -32600 with the id when the line's first 64 KiB show a
   * call's id, or a silent refusal carrying a response's id), and reported once as `OVERSIZED`;
   * the stream goes on. Default: `limits.maxMessageBytes`, else 4 MiB, so raising
   * `limits.maxMessageBytes` raises both.
   */
  readonly maxLineBytes?: number;
  /** Limits handed to the codec for each line (`maxMessageBytes`, `maxDepth`, `maxBatch`). */
  readonly limits?: DecodeLimits;
}

/**
 * What the decoder produces, in stream order.
 * - `frame`: one non-blank line, decoded. A refused line (bad JSON, invalid UTF-8, too deep, too
 *   long) is a `frame` whose `result.ok` is false: hand it to `deliverFrame`, which answers it.
 * - `error`: a recoverable fault (a line over `maxLineBytes`, code `OVERSIZED`) for the sink's `error`.
 */
export type LineEvent =
  | { readonly type: "frame"; readonly result: DecodeResult }
  | { readonly type: "error"; readonly error: TransportError };

/**
 * A stateful newline decoder for one byte stream. It keeps slices of the chunks it was given
 * for an unfinished line (never more than `maxLineBytes` of them) and joins them once, when the
 * line's newline arrives; do not mutate a chunk after pushing it.
 */
export interface LineDecoder {
  /** Consumes one chunk of any size and returns the events of the lines it completed. Never throws. */
  push(chunk: Uint8Array): LineEvent[];
  /** Ends the stream: a last line without a newline is decoded; returns its events. The decoder is reset. */
  end(): LineEvent[];
  /** Bytes held for the unfinished line; never above `maxLineBytes`. */
  readonly bufferedBytes: number;
}

function isBlank(line: Uint8Array): boolean {
  for (let i = 0; i < line.length; i++) {
    const byte = line[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  }
  return true;
}

function decodeLine(line: Uint8Array, limits: DecodeLimits | undefined): DecodeResult | undefined {
  const end = line.length > 0 && line[line.length - 1] === 0x0d ? line.length - 1 : line.length;
  const body = end === line.length ? line : line.subarray(0, end);
  if (isBlank(body)) return undefined;
  // The codec decodes bytes as strict UTF-8: invalid bytes are refused with -32700, id null.
  return decode(body, limits);
}

function oversized(maxLineBytes: number): TransportError {
  return new TransportError(
    JsonRpcFaultCode.Oversized,
    `A line longer than maxLineBytes (${maxLineBytes} bytes) was dropped up to its newline; the stream goes on. ` +
      "Send smaller messages, or raise maxLineBytes on the receiving side.",
  );
}

/**
 * Creates the inbound half of the newline framer. Each `\n`-terminated line (an optional `\r`
 * before it is removed) is decoded as strict UTF-8 and then by the codec; blank lines are
 * skipped. The owner feeds it chunks and forwards `frame` events through `deliverFrame`.
 */
export function createLineDecoder(options: LineDecoderOptions = {}): LineDecoder {
  // A private copy, checked now: a bad limit throws here, never later inside a stream's 'data' handler.
  const limits = options.limits === undefined ? undefined : { ...options.limits };
  if (limits !== undefined) decode("", limits);
  const max = checkLimit("maxLineBytes", options.maxLineBytes, limits?.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES);
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let discarding = false;

  function take(last: Uint8Array): Uint8Array {
    if (pending.length === 0) return last;
    const line = new Uint8Array(pendingBytes + last.length);
    let offset = 0;
    for (const piece of pending) {
      line.set(piece, offset);
      offset += piece.length;
    }
    line.set(last, offset);
    pending = [];
    pendingBytes = 0;
    return line;
  }

  function emit(line: Uint8Array, events: LineEvent[]): void {
    const result = decodeLine(line, limits);
    if (result !== undefined) events.push({ type: "frame", result });
  }

  /** Refuses the line held so far plus `last` (its first bytes are enough) and drops what is held. */
  function drop(last: Uint8Array, events: LineEvent[]): void {
    const head = new Uint8Array(Math.min(ID_WINDOW, pendingBytes + last.length));
    let offset = 0;
    for (const piece of [...pending, last]) {
      if (offset === head.length) break;
      const part = piece.subarray(0, head.length - offset);
      head.set(part, offset);
      offset += part.length;
    }
    pending = [];
    pendingBytes = 0;
    events.push({ type: "frame", result: refuseOversized(head, max) });
    events.push({ type: "error", error: oversized(max) });
  }

  function hold(piece: Uint8Array, events: LineEvent[]): void {
    if (discarding || piece.length === 0) return;
    if (pendingBytes + piece.length > max) {
      drop(piece, events);
      discarding = true;
      return;
    }
    // A small slice of a large chunk would pin the whole chunk: copy it instead.
    pending.push(piece.length * 2 < piece.buffer.byteLength ? piece.slice() : piece);
    pendingBytes += piece.length;
  }

  function push(chunk: Uint8Array): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      if (newline === -1) {
        hold(chunk.subarray(start), events);
        break;
      }
      if (discarding) {
        discarding = false;
      } else if (pendingBytes + (newline - start) > max) {
        drop(chunk.subarray(start, newline), events);
      } else {
        emit(take(chunk.subarray(start, newline)), events);
      }
      start = newline + 1;
    }
    return events;
  }

  function end(): LineEvent[] {
    const events: LineEvent[] = [];
    if (!discarding && pendingBytes > 0) emit(take(new Uint8Array(0)), events);
    pending = [];
    pendingBytes = 0;
    discarding = false;
    return events;
  }

  return {
    push,
    end,
    get bufferedBytes() {
      return pendingBytes;
    },
  };
}
