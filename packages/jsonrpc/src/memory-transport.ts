/**
 * An in-memory linked pair of transports for tests: what one side sends, the other side's
 * sink receives, with an `Exchange` whose `reply` goes back to the sender. By default every
 * frame crosses as text (`encode` then `decode`), so tests see wire copies and the decode
 * limits apply exactly as on a real transport.
 */
// Imports the package by name, so the built `./testing` entry shares the root entry's
// module (one copy of every class at run time, CJS included) instead of bundling its own.
import type { DecodeLimits, DecodeResult, Exchange, ExchangeInfo, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { decode, deliverFrame, encode, JsonRpcFaultCode, TransportError } from "@proto/jsonrpc";

/** Options of `createMemoryTransportPair`. */
export interface MemoryTransportOptions {
  /** Send every frame through `encode` + `decode` (default true). False passes objects by reference. */
  readonly wire?: boolean;
  /** Decode limits applied to every frame when `wire` is on. */
  readonly limits?: DecodeLimits;
  /**
   * The `ExchangeInfo` of frames each side receives: `[first, second]`. `transport` defaults
   * to `"memory"`. Use it to give a server side a `sessionId` or an authenticated `principal`.
   */
  readonly info?: readonly [Partial<ExchangeInfo>?, Partial<ExchangeInfo>?];
}

interface Side {
  sink: TransportSink | undefined;
  inbox: (() => void)[];
  closed: boolean;
  readonly aborter: AbortController;
  readonly info: ExchangeInfo;
  other: Side;
}

function closedError(): TransportError {
  return new TransportError(JsonRpcFaultCode.Closed, "The memory transport is closed; create a new pair");
}

function createSide(info: Partial<ExchangeInfo> | undefined): Side {
  const side = { sink: undefined, inbox: [], closed: false, aborter: new AbortController(), info: { ...info, transport: info?.transport ?? "memory" } };
  return side as unknown as Side;
}

/** Queues a frame for `to`, delivered in order once `to` has started. */
function post(to: Side, payload: JsonRpcPayload, options: MemoryTransportOptions): void {
  const frame: DecodeResult | string = options.wire === false ? { ok: true, payload, invalid: [] } : encode(payload);
  const deliver = (): void => {
    const sink = to.sink;
    if (sink === undefined || to.closed) return;
    const result = typeof frame === "string" ? decode(frame, options.limits) : frame;
    deliverFrame(result, sink, exchangeFor(to, options));
  };
  if (to.sink === undefined) to.inbox.push(deliver);
  else queueMicrotask(deliver);
}

function exchangeFor(side: Side, options: MemoryTransportOptions): Exchange {
  return {
    signal: side.aborter.signal,
    info: side.info,
    reply(payload: JsonRpcPayload): Promise<void> {
      if (side.closed) return Promise.reject(closedError());
      post(side.other, payload, options);
      return Promise.resolve();
    },
  };
}

function close(side: Side, reason: Error | undefined): void {
  if (side.closed) return;
  side.closed = true;
  side.inbox = [];
  side.aborter.abort(reason ?? closedError());
  side.sink?.closed(reason);
}

function createEnd(side: Side, options: MemoryTransportOptions): Transport {
  return {
    async start(sink: TransportSink): Promise<void> {
      if (side.sink !== undefined) throw new TypeError("start() was already called on this memory transport");
      if (side.closed) throw closedError();
      side.sink = sink;
      const queued = side.inbox;
      side.inbox = [];
      for (const deliver of queued) queueMicrotask(deliver);
    },
    async send(payload: JsonRpcPayload): Promise<void> {
      if (side.closed) throw closedError();
      post(side.other, payload, options);
    },
    async close(reason?: Error): Promise<void> {
      close(side, reason);
      close(side.other, undefined);
    },
  };
}

/**
 * Creates two linked transports: `[first, second]`. Each side's `send` (and each
 * `exchange.reply` of a frame it received) reaches the other side's sink; frames sent
 * before the other side starts wait for it. Closing either side closes both: each sink gets
 * `closed` exactly once (the side that called `close` gets its reason, the other none).
 */
export function createMemoryTransportPair(options: MemoryTransportOptions = {}): [Transport, Transport] {
  const first = createSide(options.info?.[0]);
  const second = createSide(options.info?.[1]);
  first.other = second;
  second.other = first;
  return [createEnd(first, options), createEnd(second, options)];
}
