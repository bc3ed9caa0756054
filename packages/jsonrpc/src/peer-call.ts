/**
 * One running inbound request: its `RequestContext` and its abort state. The signal is
 * created lazily, on first read, so a handler that never looks at it costs no
 * `AbortController` and no listener.
 */
import type { RequestContext, RequestOptions } from "./peer-types";
import type { Exchange, ExchangeInfo } from "./transport";
import type { JsonRpcId, JsonRpcParams } from "./types";

/** What a call needs from its peer. */
export interface CallHost {
  notify(method: string, params: JsonRpcParams | undefined, options: { via: Exchange }): Promise<void>;
  request(method: string, params: JsonRpcParams | undefined, options: RequestOptions): Promise<unknown>;
  /** Aborts `call` when `signal` aborts, with one listener per distinct signal. */
  watch(signal: AbortSignal, call: InboundCall): void;
  unwatch(signal: AbortSignal, call: InboundCall): void;
}

/** The context handed to a request handler; also the peer's record of the running request. */
export class InboundCall implements RequestContext {
  /** Set when the other side cancelled the request: its result is dropped, never sent. */
  cancelled = false;
  /** Set once the handler has settled. */
  finished = false;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(
    private readonly host: CallHost,
    readonly id: JsonRpcId,
    readonly method: string,
    readonly exchange: Exchange,
    readonly inBatch: boolean,
  ) {}

  get info(): ExchangeInfo {
    return this.exchange.info;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      const exchangeSignal = this.exchange.signal;
      if (this.#aborted) this.#controller.abort(this.#reason);
      else if (exchangeSignal.aborted) this.abort(exchangeSignal.reason);
      else if (!this.finished) this.host.watch(exchangeSignal, this);
    }
    return this.#controller.signal;
  }

  /** Aborts the handler's signal (once); later calls keep the first reason. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }

  /** Marks the handler settled and stops watching the exchange's signal. */
  finish(): void {
    this.finished = true;
    if (this.#controller !== undefined) this.host.unwatch(this.exchange.signal, this);
  }

  notify(method: string, params?: JsonRpcParams): Promise<void> {
    return this.host.notify(method, params, { via: this.exchange });
  }

  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown> {
    return this.host.request(method, params, { ...options, via: this.exchange });
  }
}
