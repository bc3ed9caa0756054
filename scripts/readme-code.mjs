#!/usr/bin/env node
/**
 * READMEs that run. Every ```ts block of README.md, packages/*\/README.md and
 * examples/*\/README.md is a complete module and is type-checked against the workspace sources:
 *
 *   node scripts/readme-code.mjs extract   writes each block to readme-code/ beside its README
 *                                           (gitignored; so imports resolve from the package that
 *                                           documents them, its devDependencies included), at the
 *                                           README's own line numbers, so `tsc -p tsconfig.json`
 *                                           (the `typecheck` script) checks them and its errors
 *                                           name the README line
 *   node scripts/readme-code.mjs run       runs the blocks marked runnable (after extract)
 *
 * A block is marked by an HTML comment on the line just before its fence:
 *   <!-- readme-code: run -->               also run it (tsx, 30 s at most, must exit 0)
 *   <!-- readme-code: skip REASON -->       not checked; the reason is printed on every run
 *   <!-- recipe: PATH -->                   a framework recipe: the same code is PATH's `#region
 *                                           readme`, type-checked and run by
 *                                           test/frameworks/recipes.test.ts, so it is skipped here
 * Nothing else is skipped: a block that is a fragment is written out whole instead.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DIR = "readme-code";
const INDEX = join(ROOT, DIR, "blocks.json");
const MARK = /^<!--\s*readme-code:\s*(run|skip)\b\s*(.*?)\s*-->\s*$/;

function readmes() {
  const found = ["README.md"];
  for (const dir of ["packages", "examples"]) {
    for (const name of readdirSync(join(ROOT, dir)).sort()) {
      if (existsSync(join(ROOT, dir, name, "README.md"))) found.push(`${dir}/${name}/README.md`);
    }
  }
  return found;
}

/** The ```ts blocks of one README: first line number (1-based) of the code, its lines, and its mark. */
function blocksOf(file) {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)```(\S*)(.*)$/.exec(lines[i]);
    if (fence === null) continue;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end])) end++;
    if (fence[2] === "ts" || fence[2] === "typescript") {
      const before = lines[i - 1] ?? "";
      const mark = MARK.exec(before);
      const recipe = /^<!--\s*recipe:\s*(\S+)\s*-->/.exec(before);
      const reason = recipe !== null ? `the recipe ${recipe[1]}, checked and run by test/frameworks/recipes.test.ts` : (mark?.[2] ?? "");
      blocks.push({ file, line: i + 2, code: lines.slice(i + 1, end), mode: recipe !== null ? "skip" : (mark?.[1] ?? "check"), reason });
    }
    i = end;
  }
  return blocks;
}

/** Where a block is written: readme-code/ beside its README. */
function pathOf(block, n) {
  return join(dirname(block.file), DIR, `block-${String(n).padStart(2, "0")}.ts`);
}

function extract() {
  const files = readmes();
  for (const file of files) rmSync(join(ROOT, dirname(file), DIR), { recursive: true, force: true });
  mkdirSync(join(ROOT, DIR), { recursive: true });
  const all = files.flatMap((file) => blocksOf(file).map((block, n) => ({ ...block, name: pathOf(block, n + 1) })));
  const checked = all.filter((b) => b.mode !== "skip");
  for (const b of checked) {
    mkdirSync(join(ROOT, dirname(b.name)), { recursive: true });
    // Blank lines first, so tsc's line numbers are the README's; `export {}` makes every block a module.
    writeFileSync(join(ROOT, b.name), `${"\n".repeat(b.line - 1)}${b.code.join("\n")}\nexport {};\n`);
  }
  writeFileSync(INDEX, JSON.stringify(all.map(({ code, ...rest }) => rest), null, 2));
  for (const b of all.filter((b) => b.mode === "skip")) process.stdout.write(`readme-code: skipped ${b.file}:${b.line}: ${b.reason || "(no reason given)"}\n`);
  process.stdout.write(`readme-code: ${checked.length} of ${all.length} ts blocks extracted to ${DIR}/ beside their READMEs (checked by tsc -p tsconfig.json; ${all.filter((b) => b.mode === "run").length} to run)\n`);
}

/** Runs one block with tsx; resolves with what it printed when it failed, else undefined. */
function runBlock(b) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, b.name)], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, "tsconfig.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 ? undefined : `exit ${code ?? signal}${signal === "SIGKILL" ? " (ran over 30 s)" : ""}\n${output.slice(-4000)}`);
    });
  });
}

async function run() {
  if (!existsSync(INDEX)) extract();
  const queue = JSON.parse(readFileSync(INDEX, "utf8")).filter((b) => b.mode === "run");
  const total = queue.length;
  let failed = 0;
  // A few at a time: each is a Node process loading the workspace sources through tsx.
  await Promise.all(
    Array.from({ length: Math.min(4, total) }, async () => {
      for (let b = queue.shift(); b !== undefined; b = queue.shift()) {
        const failure = await runBlock(b);
        if (failure !== undefined) failed++;
        process.stdout.write(`readme-code: ${failure === undefined ? "ran" : "FAILED"} ${b.file}:${b.line}${failure === undefined ? "" : ` (${failure})`}\n`);
      }
    }),
  );
  if (failed > 0) {
    process.stderr.write(`readme-code: ${failed} of ${total} runnable README blocks failed\n`);
    process.exit(1);
  }
  process.stdout.write(`readme-code: ${total} runnable README blocks ran\n`);
}

const command = process.argv[2];
if (command === "extract") extract();
else if (command === "run") await run();
else {
  process.stderr.write("usage: node scripts/readme-code.mjs extract|run\n");
  process.exit(2);
}
