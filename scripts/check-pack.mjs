// Pack checks for every published package: publint, then @arethetypeswrong/cli.
// Runs after `pnpm build`; exits non-zero on the first package that fails.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
let failed = 0;
for (const dir of readdirSync(join(root, "packages"))) {
  const cwd = join(root, "packages", dir);
  const pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"));
  for (const [label, cmd, args] of [
    ["publint", bin("publint"), ["--strict", "--pack", "npm"]],
    ["attw", bin("attw"), ["--pack", ".", "--profile", "node16", "--format", "table-flipped"]],
  ]) {
    try {
      execFileSync(cmd, args, { cwd, stdio: "pipe", encoding: "utf8" });
      process.stdout.write(`ok   ${label} ${pkg.name}\n`);
    } catch (error) {
      failed++;
      process.stdout.write(`FAIL ${label} ${pkg.name}\n${error.stdout ?? ""}${error.stderr ?? ""}\n`);
    }
  }
}
if (failed > 0) {
  process.stdout.write(`${failed} pack check(s) failed\n`);
  process.exit(1);
}
