/** Loading a server from a module for `verify` (Node only): `path.js#exportName`. */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Connectable } from "./verify-run";

/** A server loaded from a module, and how to stop it when its module gave a `close`. */
export interface LoadedServer {
  readonly server: Connectable;
  close?(): Promise<void>;
}

function isConnectable(value: unknown): value is Connectable {
  return typeof value === "object" && value !== null && typeof (value as Connectable).connect === "function";
}

/** Splits `path.js#name` into the path and the export name (undefined without `#`). */
export function parseModuleSpecifier(specifier: string): { path: string; exportName: string | undefined } {
  const hash = specifier.lastIndexOf("#");
  if (hash < 0) return { path: specifier, exportName: undefined };
  const exportName = specifier.slice(hash + 1);
  if (exportName === "") throw new TypeError(`module specifier ${specifier}: name the export after '#', e.g. server.js#server`);
  return { path: specifier.slice(0, hash), exportName };
}

async function unwrap(value: unknown, where: string): Promise<LoadedServer> {
  const made = typeof value === "function" ? await (value as () => unknown)() : value;
  if (isConnectable(made)) return { server: made };
  const inner = (made as { server?: unknown; close?: unknown } | null | undefined)?.server;
  if (isConnectable(inner)) {
    const close = (made as { close?: unknown }).close;
    return typeof close === "function" ? { server: inner, close: async () => void (await (close as () => unknown).call(made)) } : { server: inner };
  }
  throw new TypeError(`${where} is not a server: export a server (an object with connect(transport)), { server }, or a function returning one`);
}

/**
 * Imports the module at `specifier` (`path[#exportName]`, relative to `cwd`) and returns the
 * server it exports: the named export, else `default`, else `server`. A function export is
 * called (it may be async) to make the server.
 */
export async function loadServerModule(specifier: string, cwd: string = process.cwd()): Promise<LoadedServer> {
  const { path, exportName } = parseModuleSpecifier(specifier);
  const url = path.startsWith("file:") ? path : pathToFileURL(resolve(cwd, path)).href;
  const mod = (await import(url)) as Record<string, unknown>;
  const names = exportName === undefined ? ["default", "server"] : [exportName];
  const name = names.find((n) => mod[n] !== undefined);
  if (name === undefined) {
    const available = Object.keys(mod).filter((k) => k !== "__esModule");
    throw new TypeError(`${path} has no export ${names.map((n) => `"${n}"`).join(" or ")}; it exports ${available.length === 0 ? "nothing" : available.join(", ")}. Name one with ${path}#<export>`);
  }
  return unwrap(mod[name], `export "${name}" of ${path}`);
}
