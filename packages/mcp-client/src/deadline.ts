/**
 * A request deadline that progress can push back: an idle timeout restarted by `reset()`,
 * optionally capped by a total timeout that nothing extends (MCP 2025-11-25, basic/lifecycle,
 * "Timeouts": progress MAY reset the timeout clock; a maximum timeout SHOULD always apply).
 */

/** Why a deadline expired: no response (or progress) within `timeoutMs`, or `maxTotalTimeoutMs` passed. */
export type DeadlineKind = "idle" | "total";

/** The timing of one request. */
export interface DeadlineOptions {
  /** Milliseconds without a response (or progress, when resets are on). 0 or Infinity: none. */
  readonly timeoutMs: number;
  /** Milliseconds from the start that nothing extends. Undefined, 0 or Infinity: none. */
  readonly maxTotalTimeoutMs?: number | undefined;
}

/** A running deadline. */
export interface Deadline {
  /** Restarts the idle timer (a progress notification arrived). No effect once expired or cleared. */
  reset(): void;
  /** Stops both timers. Idempotent. */
  clear(): void;
}

function isBounded(ms: number | undefined): ms is number {
  return ms !== undefined && ms > 0 && Number.isFinite(ms);
}

/** Checks a timeout option and says what to pass instead when it is wrong. */
export function checkTimeout(name: string, value: number | undefined): void {
  if (value !== undefined && (typeof value !== "number" || Number.isNaN(value) || value < 0)) {
    throw new TypeError(`${name} must be a number of milliseconds >= 0 (0 means no timeout), got ${String(value)}`);
  }
}

/** Starts a deadline; `expire` is called at most once. */
export function startDeadline(options: DeadlineOptions, expire: (kind: DeadlineKind) => void): Deadline {
  let done = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let total: ReturnType<typeof setTimeout> | undefined;
  const fire = (kind: DeadlineKind) => () => {
    if (done) return;
    clear();
    expire(kind);
  };
  function clear(): void {
    done = true;
    if (idle !== undefined) clearTimeout(idle);
    if (total !== undefined) clearTimeout(total);
  }
  if (isBounded(options.timeoutMs)) idle = setTimeout(fire("idle"), options.timeoutMs);
  if (isBounded(options.maxTotalTimeoutMs)) total = setTimeout(fire("total"), options.maxTotalTimeoutMs);
  return {
    reset() {
      if (done || idle === undefined) return;
      clearTimeout(idle);
      idle = setTimeout(fire("idle"), options.timeoutMs);
    },
    clear,
  };
}
