/** Test support (not exported): stdio children of this folder's fixtures, run with tsx. */
import { fileURLToPath } from "node:url";
import type { StdioChildConfig } from "../types";

/** The repository root: tsx resolves `@proto/*` through its tsconfig paths. */
export const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** A stdio child running `child-stdio.ts NAME MODE`. */
export function fixtureChild(name: string, mode = "normal", extra: Partial<StdioChildConfig> = {}): StdioChildConfig {
  return {
    command: [process.execPath, "--import", "tsx", fileURLToPath(new URL("./child-stdio.ts", import.meta.url)), name, mode],
    cwd: REPO_ROOT,
    env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` },
    ...extra,
  };
}
