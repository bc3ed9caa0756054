/** Timers that never keep a Node process alive (`unref` where the runtime has it). */

type Handle = ReturnType<typeof setTimeout>;

function unref(handle: Handle): Handle {
  const maybe = handle as { unref?: () => void };
  if (typeof maybe.unref === "function") maybe.unref();
  return handle;
}

/** `setInterval` that does not hold the process open. */
export function every(ms: number, run: () => void): Handle {
  return unref(setInterval(run, ms));
}

/** `setTimeout` that does not hold the process open. */
export function after(ms: number, run: () => void): Handle {
  return unref(setTimeout(run, ms));
}

/** A member of a `Ticker`: an object with a `tick` method, so joining one allocates no closure. */
export interface TickMember {
  tick(): void;
}

/** Runs `tick` of each member every `ms` with one timer for them all. */
export interface Ticker {
  add(member: TickMember): void;
  delete(member: TickMember): void;
}

const tickers = new Map<number, Ticker>();

/**
 * The process's ticker of period `ms`: one unref'd interval for every member instead of a
 * timer each (a stream answered in the same turn it opened never touches a timer list). The
 * interval runs while there are members and stops at the first tick that finds none. A member
 * first runs within `ms` of being added, not exactly `ms` after.
 */
export function tickerOf(ms: number): Ticker {
  let ticker = tickers.get(ms);
  if (ticker !== undefined) return ticker;
  const members = new Set<TickMember>();
  let handle: Handle | undefined;
  const tick = (): void => {
    if (members.size === 0) {
      clearInterval(handle);
      handle = undefined;
      return;
    }
    for (const member of [...members]) member.tick();
  };
  ticker = {
    add(member) {
      members.add(member);
      handle ??= every(ms, tick);
    },
    delete(member) {
      members.delete(member);
    },
  };
  tickers.set(ms, ticker);
  return ticker;
}
