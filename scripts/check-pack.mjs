// Pack checks for every published package, after `pnpm build`: publint; @arethetypeswrong/cli
// on every resolution profile (node10, node16 from CJS and ESM, bundler); and the manifest
// itself: LICENSE in the tarball, registry metadata present, runtime dependencies as caret
// ranges (an exact pin gives an app a second copy of ajv or ws). Exits non-zero when any fails.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
const license = readFileSync(join(root, "LICENSE"), "utf8");

/** Problems of one package's manifest and tarball listing, as sentences. */
function manifestProblems(cwd, pkg) {
  const problems = [];
  for (const field of ["repository", "homepage", "bugs", "keywords", "license", "description"]) {
    if (pkg[field] === undefined) problems.push(`package.json has no "${field}"`);
  }
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (!range.startsWith("workspace:") && !range.startsWith("^")) problems.push(`dependency ${name} is "${range}": use a caret range`);
  }
  if (readFileSync(join(cwd, "LICENSE"), "utf8") !== license) problems.push("LICENSE differs from the repository's LICENSE");
  const [listing] = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd, encoding: "utf8", stdio: "pipe" }));
  const files = new Set(listing.files.map((file) => file.path));
  for (const file of ["LICENSE", "README.md", "package.json"]) if (!files.has(file)) problems.push(`the tarball lacks ${file}`);
  return problems;
}

function manifestCheck(cwd, pkg) {
  const problems = manifestProblems(cwd, pkg);
  if (problems.length > 0) throw Object.assign(new Error("manifest"), { stdout: problems.map((p) => `  ${p}\n`).join("") });
}

let failed = 0;
for (const dir of readdirSync(join(root, "packages"))) {
  const cwd = join(root, "packages", dir);
  const pkg = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"));
  const checks = [
    ["publint", () => execFileSync(bin("publint"), ["--strict", "--pack", "npm"], { cwd, stdio: "pipe", encoding: "utf8" })],
    ["attw", () => execFileSync(bin("attw"), ["--pack", ".", "--profile", "strict", "--format", "table-flipped"], { cwd, stdio: "pipe", encoding: "utf8" })],
    ["manifest", () => manifestCheck(cwd, pkg)],
  ];
  for (const [label, run] of checks) {
    try {
      run();
      process.stdout.write(`ok   ${label} ${pkg.name}\n`);
    } catch (error) {
      failed++;
      process.stdout.write(`FAIL ${label} ${pkg.name}\n${error.stdout ?? error.message}${error.stderr ?? ""}\n`);
    }
  }
}
if (failed > 0) {
  process.stdout.write(`${failed} pack check(s) failed\n`);
  process.exit(1);
}
