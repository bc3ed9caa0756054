/**
 * Where the conformance run finds what it needs: the built everything example, the pinned
 * conformance CLI, and the Node 20 loader that lets the CLI start (`test/conformance/node20`,
 * carried by the repository so that a fresh clone needs nothing beside it).
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The built everything server and conformance client. */
export const EVERYTHING = {
  server: join(REPO_ROOT, "examples/everything/dist/server.js"),
  client: join(REPO_ROOT, "examples/everything/dist/client.js"),
} as const;

/** The pinned conformance CLI (a devDependency of test/). */
export const CONFORMANCE_CLI = join(REPO_ROOT, "test/node_modules/@modelcontextprotocol/conformance/dist/index.js");

/** The loader that lets the CLI start on Node 20 (it imports `globSync` from `node:fs`). */
export const NODE20_SHIM = join(REPO_ROOT, "test/conformance/node20/register.mjs");

/** Throws an error saying what to do when something the run needs is missing. */
export function assertPrerequisites(): void {
  const missing = Object.values(EVERYTHING).filter((file) => !existsSync(file));
  if (missing.length > 0) {
    throw new Error(`The everything example is not built (${missing.join(", ")} missing): run \`pnpm build\` first (the root \`pnpm test\` does).`);
  }
  if (!existsSync(CONFORMANCE_CLI)) throw new Error(`The conformance CLI is not installed at ${CONFORMANCE_CLI}: run \`pnpm install\`.`);
  if (!existsSync(NODE20_SHIM)) {
    throw new Error(`The Node 20 loader is missing at ${NODE20_SHIM}: restore test/conformance/node20/ from the repository.`);
  }
}
