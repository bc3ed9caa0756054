// `node:fs` plus `globSync` for the two pattern shapes the conformance CLI uses:
// a file name (`checks.json`) and a file name at any depth (`**/checks.json`).
import fs from "node:fs";
import { join } from "node:path";

export * from "node:fs";
export default fs;

/** Relative paths under `options.cwd` (default: the process cwd) whose file name matches. */
export function globSync(pattern, options = {}) {
  const root = options.cwd ?? process.cwd();
  const anyDepth = pattern.startsWith("**/");
  const name = anyDepth ? pattern.slice(3) : pattern;
  if (name.includes("/") || name.includes("*")) throw new TypeError(`globSync shim: unsupported pattern ${pattern}`);
  const found = [];
  const pending = [""];
  while (pending.length > 0) {
    const dir = pending.pop();
    let entries;
    try {
      entries = fs.readdirSync(join(root, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = dir === "" ? entry.name : join(dir, entry.name);
      if (entry.isDirectory()) {
        if (anyDepth) pending.push(path);
      } else if (entry.name === name) found.push(path);
    }
  }
  return found.sort();
}
