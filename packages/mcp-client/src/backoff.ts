/**
 * Exponential backoff with jitter, and a `retry` loop built on it. Used by the client's
 * lazy (re)connect; exported because hosts need the same thing around their own calls.
 */

/** How long to wait between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry, in milliseconds. Default 250. */
  readonly initialDelayMs?: number;
  /** Largest delay, in milliseconds. Default 30,000. */
  readonly maxDelayMs?: number;
  /** Growth per attempt. Default 2. */
  readonly factor?: number;
  /**
   * `"full"` (default) waits a uniformly random time in [0, delay] ("full jitter", which
   * spreads reconnect storms best); `"none"` waits exactly `delay`.
   */
  readonly jitter?: "full" | "none";
}

/** Options of `retry`. */
export interface RetryOptions extends BackoffOptions {
  /** Retries after the first attempt. Default 3 (so at most 4 attempts). */
  readonly retries?: number;
  /** Aborting stops waiting and retrying; `retry` rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Return false to give up at once on this error (for example a 4xx). Default: always retry. */
  readonly shouldRetry?: (error: unknown, attempt: number) => boolean;
  /** Called before each wait, with the failed attempt's error and the delay chosen. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** The random source in [0, 1); injectable for tests. Default `Math.random`. */
  readonly random?: () => number;
}

function check(name: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min) {
    throw new TypeError(`${name} must be a finite number >= ${min}, got ${String(value)}`);
  }
  return value;
}

/**
 * The delay before retry number `attempt` (1 for the first retry): `initialDelayMs *
 * factor^(attempt-1)`, capped at `maxDelayMs`, then jittered. Never negative, never above the cap.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}, random: () => number = Math.random): number {
  const initial = check("initialDelayMs", options.initialDelayMs, 250, 0);
  const max = check("maxDelayMs", options.maxDelayMs, 30_000, 0);
  const factor = check("factor", options.factor, 2, 1);
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const delay = Math.min(max, initial * factor ** exponent);
  if (options.jitter === "none") return delay;
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.floor(delay * r);
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}

/**
 * Runs `attempt` until it resolves, retrying up to `retries` times with backoff between
 * attempts. Rejects with the last error, or with the signal's reason once aborted.
 * `attempt` receives the attempt number (1-based).
 */
export async function retry<T>(attempt: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = check("retries", options.retries, 3, 0);
  for (let n = 1; ; n++) {
    options.signal?.throwIfAborted();
    try {
      return await attempt(n);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      if (n > retries || options.shouldRetry?.(error, n) === false) throw error;
      const delay = backoffDelay(n, options, options.random);
      options.onRetry?.(error, n, delay);
      await sleep(delay, options.signal);
    }
  }
}
