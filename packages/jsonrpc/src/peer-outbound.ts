/**
 * The outbound half of a `Peer`: request ids, the pending map, timeouts, aborts and the
 * cancellation notification sent for a request given up on (JSON-RPC 2.0 section 4;
 * MCP "Cancellation").
 */
import type { CancellationProtocol, Logger, RequestOptions, TrackedRequest } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcId, JsonRpcParams, JsonRpcPayload, JsonRpcRequest, JsonRpcResponse } from "./types";
import { JsonRpcFaultCode, JsonRpcError, RequestError } from "./errors";
import { createRequestAborts } from "./peer-watch";
import { createTimeouts, type TimeoutGroup } from "./peer-timeouts";

/** Sends a payload through `via` when given, else through the transport. */
export type SendFn = (payload: JsonRpcPayload, via: Exchange | undefined) => Promise<void>;

interface Pending {
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly via: Exchange | undefined;
  readonly signal: AbortSignal | undefined;
  /** The shared timeout, until the request ends or `resetTimeout` gives it a timer of its own. */
  group: TimeoutGroup | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** What `peer.ts` uses of the outbound half. */
export interface Outbound {
  request(method: string, params: JsonRpcParams | undefined, options: RequestOptions | undefined): Promise<unknown>;
  /** Settles the pending request a response answers; false when no request waits for its id. */
  settle(response: JsonRpcResponse): boolean;
  /** Rejects every pending request with `CLOSED`. */
  closeAll(reason: Error | undefined): void;
  /** Rejects the pending request `id` at once with `OVERSIZED`: its response was dropped unread. */
  dropped(id: JsonRpcId, fault: Error): void;
}

/** Node's timers (and Bun's) can be re-armed in place; a browser's are numbers. */
function refreshable(timer: ReturnType<typeof setTimeout>): timer is ReturnType<typeof setTimeout> & { refresh(): unknown } {
  return typeof timer === "object" && timer !== null && typeof (timer as { refresh?: unknown }).refresh === "function";
}

/** The handle `RequestOptions.track` receives: one object, no closures, per tracked request. */
class Tracked implements TrackedRequest {
  constructor(
    readonly id: JsonRpcId,
    private readonly timeoutMs: number,
    private readonly reset: (id: JsonRpcId, timeoutMs: number) => void,
    private readonly end: (id: JsonRpcId, reason: unknown) => void,
  ) {}

  resetTimeout(): void {
    this.reset(this.id, this.timeoutMs);
  }

  abort(reason?: unknown): void {
    this.end(this.id, reason);
  }
}

/** Most requests that share one rejection handler of a shared send promise. */
const MAX_IDS_PER_SEND = 256;

function checkTimeout(timeoutMs: number): void {
  if (!(timeoutMs >= 0 && timeoutMs <= 2_147_483_647)) {
    throw new TypeError(`timeoutMs must be a number of milliseconds between 0 and 2^31-1 (0 = none), got ${String(timeoutMs)}`);
  }
}

function describeReason(reason: unknown): string | undefined {
  if (reason instanceof Error) return reason.message;
  return typeof reason === "string" ? reason : undefined;
}

/** Builds the outbound half. `isClosed` tells whether the peer has closed. */
export function createOutbound(
  send: SendFn,
  isClosed: () => boolean,
  defaultTimeoutMs: number,
  logger: Logger,
  cancellation: CancellationProtocol | undefined,
): Outbound {
  const pending = new Map<JsonRpcId, Pending>();
  let nextId = 1;
  const aborts = createRequestAborts(onAbort);
  const timeouts = createTimeouts((id, group) => {
    if (pending.get(id)?.group === group) onTimeout(id, group.timeoutMs);
  });

  function take(id: JsonRpcId): Pending | undefined {
    const entry = pending.get(id);
    if (entry === undefined) return undefined;
    pending.delete(id);
    if (entry.group !== undefined) timeouts.leave(entry.group);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    if (entry.signal !== undefined) aborts.unwatch(entry.signal, id);
    return entry;
  }

  function sendCancel(id: JsonRpcId, via: Exchange | undefined, reason: string | undefined): void {
    if (cancellation === undefined || isClosed()) return;
    const notice = { jsonrpc: "2.0", method: cancellation.method, params: cancellation.params(id, reason) } as const;
    send(notice, via).then(undefined, (error: unknown) => logger.warn(`Could not send the cancellation of request ${String(id)}`, error));
  }

  function onTimeout(id: JsonRpcId, timeoutMs: number): void {
    const entry = take(id);
    if (entry === undefined) return;
    const message = `Request "${entry.method}" (id ${String(id)}) got no response within ${timeoutMs} ms; raise timeoutMs if it is expected to take longer`;
    entry.reject(new RequestError(JsonRpcFaultCode.Timeout, entry.method, message));
    sendCancel(id, entry.via, "timeout");
  }

  function onAbort(id: JsonRpcId): void {
    const entry = pending.get(id);
    if (entry !== undefined) abortEntry(id, entry.signal?.reason);
  }

  function abortEntry(id: JsonRpcId, reason: unknown): void {
    const entry = take(id);
    if (entry === undefined) return;
    entry.reject(new RequestError(JsonRpcFaultCode.Aborted, entry.method, `Request "${entry.method}" (id ${String(id)}) was aborted`, { cause: reason }));
    // (aborted from inside its `track` callback: it was never sent, so there is nothing to cancel)
    if (id !== tracking) sendCancel(id, entry.via, describeReason(reason));
  }

  /** Restarts the timeout of request `id`: it leaves its group for a timer of its own, re-armed (not made again) on later resets where timers can be. */
  function resetTimeout(id: JsonRpcId, timeoutMs: number): void {
    const entry = pending.get(id);
    if (entry === undefined || (entry.timer === undefined && entry.group === undefined)) return;
    if (entry.group !== undefined) {
      timeouts.leave(entry.group);
      entry.group = undefined;
    } else if (entry.timer !== undefined && refreshable(entry.timer)) {
      entry.timer.refresh();
      return;
    }
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = setTimeout(onTimeout, timeoutMs, id, timeoutMs);
  }

  /** The request whose `track` callback runs (it is sent after). */
  let tracking: JsonRpcId | undefined;

  function track(callback: NonNullable<RequestOptions["track"]>, id: JsonRpcId, timeoutMs: number): void {
    tracking = id;
    try {
      callback(new Tracked(id, timeoutMs, resetTimeout, abortEntry));
    } catch (error) {
      logger.error("RequestOptions.track threw; the request goes on", error);
    } finally {
      tracking = undefined;
    }
  }

  // Transports that write several frames at once (stdio) answer them with one promise: the
  // requests sent on the same promise share one rejection handler, not a closure and a promise each.
  let lastSend: Promise<void> | undefined;
  let lastIds: JsonRpcId[] = [];

  function watchSend(sent: Promise<void>, id: JsonRpcId): void {
    // (bounded: a transport answering every send with the same settled promise must not collect every id)
    if (sent === lastSend && lastIds.length < MAX_IDS_PER_SEND) {
      lastIds.push(id);
      return;
    }
    const ids = [id];
    lastSend = sent;
    lastIds = ids;
    sent.then(undefined, (error: unknown) => {
      for (const each of ids) take(each)?.reject(error);
    });
  }

  function request(method: string, params: JsonRpcParams | undefined, options: RequestOptions | undefined): Promise<unknown> {
    if (typeof method !== "string") throw new TypeError("request(method): method must be a string");
    const timeoutMs = options?.timeoutMs ?? defaultTimeoutMs;
    checkTimeout(timeoutMs);
    if (isClosed()) return Promise.reject(new RequestError(JsonRpcFaultCode.Closed, method, `Cannot send "${method}": the peer is closed`));
    const signal = options?.signal;
    if (signal?.aborted) {
      return Promise.reject(new RequestError(JsonRpcFaultCode.Aborted, method, `Request "${method}" was aborted before it was sent`, { cause: signal.reason }));
    }
    const id = nextId++;
    const message: JsonRpcRequest = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    const via = options?.via;
    return new Promise((resolve, reject) => {
      const entry: Pending = { method, resolve, reject, via, signal, group: undefined, timer: undefined };
      pending.set(id, entry);
      if (timeoutMs > 0) entry.group = timeouts.join(id, timeoutMs);
      if (signal !== undefined) aborts.watch(signal, id);
      if (options?.track !== undefined) {
        track(options.track, id, timeoutMs);
        if (!pending.has(id)) return;
      }
      watchSend(send(message, via), id);
    });
  }

  function settle(response: JsonRpcResponse): boolean {
    if (response.id === null) return false;
    const entry = take(response.id);
    if (entry === undefined) return false;
    if ("error" in response) entry.reject(JsonRpcError.fromObject(response.error));
    else entry.resolve(response.result);
    return true;
  }

  function closeAll(reason: Error | undefined): void {
    for (const id of [...pending.keys()]) {
      const entry = take(id);
      if (entry === undefined) continue;
      const message = `The connection closed before "${entry.method}" (id ${String(id)}) got a response`;
      entry.reject(new RequestError(JsonRpcFaultCode.Closed, entry.method, message, { cause: reason }));
    }
    aborts.clear();
  }

  function dropped(id: JsonRpcId, fault: Error): void {
    const entry = take(id);
    if (entry === undefined) return;
    const message = `The response to "${entry.method}" (id ${String(id)}) exceeded this side's size limit and was dropped unread; raise maxMessageBytes on this side or ask for a smaller result`;
    entry.reject(new RequestError(JsonRpcFaultCode.Oversized, entry.method, message, { cause: fault }));
  }

  return { request, settle, closeAll, dropped };
}
