/**
 * One no-op `error` listener per stream, however many transports come and go on it. A stream a
 * transport stops using (process.stdin, process.stdout) keeps a listener so a late EPIPE is not an
 * uncaught `error` event; adding one per transport made them pile up (a leak warning after ten).
 */
import type { Readable, Writable } from "node:stream";

const guarded = new WeakSet<Readable | Writable>();
const ignore = (): void => {};

/** Makes sure `stream` has the shared no-op `error` listener; adds it at most once. */
export function guardErrors(stream: Readable | Writable): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on("error", ignore);
}
