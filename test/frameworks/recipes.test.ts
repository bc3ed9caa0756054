/**
 * The framework recipes of the transport-http README are the files frameworks.test.ts runs:
 * every block marked `<!-- recipe: path -->` equals the `#region readme` of that file, so the
 * README cannot drift from what is tested.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/e2e-transports";

const readme = readFileSync(`${REPO_ROOT}packages/transport-http/README.md`, "utf8");
const blocks = [...readme.matchAll(/<!-- recipe: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)].map((m) => ({ path: m[1] as string, code: m[2] as string }));

function region(path: string): string {
  const text = readFileSync(`${REPO_ROOT}${path}`, "utf8");
  const match = /\/\/ #region readme\n([\s\S]*?)\/\/ #endregion\n/.exec(text);
  if (!match) throw new Error(`${path} has no "// #region readme" ... "// #endregion"`);
  return match[1] as string;
}

describe("transport-http README recipes", () => {
  it("lists every recipe file", () => {
    expect(blocks.map((block) => block.path).sort()).toEqual(
      ["express", "fastify", "hono", "koa", "node-http", "web-fetch"].map((name) => `test/frameworks/recipes/${name}.ts`),
    );
  });

  it.each(blocks)("$path is the README block", ({ path, code }) => {
    expect(code).toBe(region(path));
  });
});
