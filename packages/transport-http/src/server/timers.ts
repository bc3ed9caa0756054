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
