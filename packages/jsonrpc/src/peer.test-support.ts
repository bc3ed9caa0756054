/**
 * Test support for the peer tests: a server peer on one side of a memory pair, the raw other
 * side driven by hand (what it sends, what it receives), and a recording logger.
 */
import { vi } from "vitest";
import type { CancellationProtocol, ExchangeInfo, JsonRpcPayload, Peer, PeerOptions, TransportError } from "./index";
import { createPeer } from "./index";
import { createMemoryTransportPair } from "./testing";

/** Resolves after pending microtasks and one macrotask turn. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A promise with its resolve and reject in hand. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** MCP's mapping, as the protocol layer would pass it. */
export const cancellation: CancellationProtocol = {
  method: "notifications/cancelled",
  params: (requestId, reason) => (reason === undefined ? { requestId } : { requestId, reason }),
  requestId: (params) => {
    const id = (params as { requestId?: unknown } | undefined)?.requestId;
    return typeof id === "string" || typeof id === "number" ? id : undefined;
  },
  reason: (params) => {
    const reason = (params as { reason?: unknown } | undefined)?.reason;
    return typeof reason === "string" ? reason : undefined;
  },
};

export function createLogger() {
  return { warn: vi.fn<(message: string, detail?: unknown) => void>(), error: vi.fn<(message: string, detail?: unknown) => void>() };
}

/** A server peer and the raw other end of its transport. */
export async function createRig(options: PeerOptions = {}, info?: Partial<ExchangeInfo>) {
  const [a, b] = createMemoryTransportPair({ info: [info, undefined] });
  const logger = createLogger();
  const server: Peer = createPeer(a, { logger, ...options });
  const inbox: JsonRpcPayload[] = [];
  const waiting: ((payload: JsonRpcPayload) => void)[] = [];
  const errors: TransportError[] = [];
  let closedCount = 0;
  await b.start({
    payload: (payload) => {
      const waiter = waiting.shift();
      if (waiter) waiter(payload);
      else inbox.push(payload);
    },
    error: (error) => void errors.push(error),
    closed: () => void closedCount++,
  });
  return {
    server,
    logger,
    errors,
    raw: b,
    closedCount: () => closedCount,
    /** Sends a payload from the raw side. */
    send: (payload: unknown) => b.send(payload as JsonRpcPayload),
    /** Resolves with the next payload the raw side receives. */
    next: (): Promise<JsonRpcPayload> => {
      const queued = inbox.shift();
      return queued !== undefined ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    /** Everything received and not yet taken with `next`. */
    pending: () => [...inbox],
  };
}
