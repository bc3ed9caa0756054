/**
 * Keeps stray `console.log` output of embedded code off stdout, where a stdio server may write
 * nothing but frames (MCP spec 2025-11-25, "Transports > stdio": the server MUST NOT write
 * anything to stdout that is not a valid MCP message).
 */
import { Console } from "node:console";
import type { Writable } from "node:stream";

// The methods of the global console that write to stdout.
const toStdout = ["log", "info", "debug", "dir", "dirxml", "table", "count", "countReset", "group", "groupCollapsed", "groupEnd", "time", "timeLog", "timeEnd"] as const;

/**
 * Opt-in: makes the global `console`'s stdout methods (`log`, `info`, `debug`, `dir`, `table`,
 * `count`, `group`, `time*`) write to stderr (or `target`). Returns a function that restores
 * the previous methods. Direct `process.stdout.write` calls are not caught: a library that
 * writes to stdout itself must be configured not to.
 */
export function redirectConsoleToStderr(target: Writable = process.stderr): () => void {
  const replacement = new Console({ stdout: target, stderr: target });
  const global = console as unknown as Record<string, unknown>;
  const saved = new Map<string, unknown>();
  for (const name of toStdout) {
    saved.set(name, global[name]);
    global[name] = (replacement[name] as (...args: unknown[]) => void).bind(replacement);
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const [name, method] of saved) global[name] = method;
  };
}
