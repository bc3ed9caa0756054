/**
 * Waiting helpers for cross-package tests. `eventually` re-checks a condition (which may ask
 * a server over the wire) until it holds; its deadline only turns a hang into a clear failure,
 * it is never what a test measures.
 */
import { setTimeout as delay } from "node:timers/promises";

/** Re-checks `check` (a few ms apart) until it is true; rejects naming `what` after `deadlineMs` (default 20 s, under the 30 s test timeout). */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  for (let attempt = 0; ; attempt++) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what} after ${attempt + 1} checks`);
    await delay(attempt < 20 ? 1 : 10);
  }
}

/** The text of the first content block of a tool result (or undefined when it is not text). */
export function textOf(result: { readonly content: readonly unknown[] }): string | undefined {
  const first = result.content[0] as { type?: string; text?: string } | undefined;
  return first?.type === "text" ? first.text : undefined;
}
