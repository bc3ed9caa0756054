/**
 * The requester's slow path: a request whose timeout progress restarts, or whose total cap
 * (`maxTotalTimeoutMs`) is shorter than its timeout (MCP 2025-11-25, basic/lifecycle "Timeouts":
 * progress MAY reset the timeout clock; a maximum timeout SHOULD always apply).
 */
import { RequestError, type TrackedRequest } from "@proto/jsonrpc";
import type { ProgressToken } from "@proto/mcp-protocol";
import type { ProgressUpdate } from "./request-options";
import type { RequesterOptions } from "./requester";
import { safeCall } from "./observer";

const capReached = (call: SlowCall): void => call.capReached();

/**
 * One request on the slow path (progress, or a total cap shorter than its timeout). The peer
 * times the idle timeout (progress restarts it through the handle `track` gives, which re-arms
 * the peer's timer) and watches the caller's signal; the total cap is one timer of ours that
 * gives the request up through the same handle. So such a request costs no `AbortController`
 * and no listener on the caller's signal, and progress makes no timer.
 */
export class SlowCall {
  handle: TrackedRequest | undefined = undefined;
  /** The total cap's timer, once it runs. */
  cap: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Set when the total cap gave the request up: what it rejects with. */
  overdue: RequestError | undefined = undefined;

  constructor(
    private readonly config: RequesterOptions,
    private readonly listeners: Map<ProgressToken, SlowCall>,
    readonly method: string,
    readonly token: ProgressToken | undefined,
    readonly timeoutMs: number,
    /** The total cap (0: none). */
    readonly maxTotalTimeoutMs: number,
    /** Progress restarts the timeout. */
    readonly resets: boolean,
    readonly onProgress: ((progress: ProgressUpdate) => void) | undefined,
  ) {}

  readonly track = (handle: TrackedRequest): void => {
    this.handle = handle;
    // Without restarts a timeout no longer than the cap ends the request first: no cap timer then.
    const m = this.maxTotalTimeoutMs;
    if (m !== 0 && (this.resets || this.timeoutMs === 0 || this.timeoutMs > m)) this.startCap(m);
  };

  startCap(ms: number): void {
    this.cap = setTimeout(capReached, ms, this);
  }

  /** The total cap passed: the request is given up (the peer sends the cancellation). */
  capReached(): void {
    this.cap = undefined;
    this.overdue = new RequestError("TIMEOUT", this.method, `Request "${this.method}" exceeded maxTotalTimeoutMs (${this.maxTotalTimeoutMs} ms)`);
    this.handle?.abort(this.overdue);
  }

  /** A progress notification for this request. */
  progress(update: ProgressUpdate): void {
    if (this.resets) this.handle?.resetTimeout();
    const onProgress = this.onProgress;
    if (onProgress !== undefined) safeCall(onProgress, update, (error) => this.config.report(error, `the onProgress callback of "${this.method}"`));
  }

  private end(): void {
    if (this.cap !== undefined) clearTimeout(this.cap);
    this.cap = undefined;
    if (this.token !== undefined) this.listeners.delete(this.token);
  }

  readonly done = (value: unknown): unknown => {
    this.end();
    return value;
  };

  readonly failed = (error: unknown): never => {
    this.end();
    if (this.overdue !== undefined) throw this.overdue;
    if (error instanceof RequestError && error.code === "TIMEOUT") {
      throw new RequestError("TIMEOUT", this.method, `Request "${this.method}" got no response${this.token === undefined ? "" : " or progress"} within ${this.timeoutMs} ms; raise timeoutMs if it is expected to take longer`);
    }
    throw error;
  };
}

