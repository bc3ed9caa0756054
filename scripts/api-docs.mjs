// Generates the API reference of every published package from its JSDoc with typedoc, into
// docs/api/ (not committed: run `pnpm docs:api`). The entry points are each package's public
// entries as its package.json `exports` lists them, read from the sources.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const entryPoints = [];
for (const dir of readdirSync(join(root, "packages")).sort()) {
  const pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (subpath === "./package.json") continue;
    const built = target.import.default; // ./dist/<entry>.js
    entryPoints.push(join("packages", dir, built.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")));
  }
}
const out = process.argv[2] ?? "docs/api";
execFileSync(
  join(root, "node_modules", ".bin", "typedoc"),
  ["--tsconfig", "tsconfig.json", "--out", out, "--name", "@proto API reference", "--readme", "none", "--excludePrivate", "--excludeInternal", ...entryPoints],
  { cwd: root, stdio: "inherit" },
);
process.stdout.write(`API reference of ${entryPoints.length} entry points in ${out}/index.html\n`);
