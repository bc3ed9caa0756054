/**
 * Runtimes that refuse code generation from strings (Cloudflare Workers, strict CSPs): our
 * server and client, from the built packages, in a node run with
 * `--disallow-code-generation-from-strings`. ajv cannot compile there; the interpreting
 * validator takes over on both sides without being asked (`jsonSchemaValidator: "auto"`).
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("./fixtures/no-codegen.mjs", import.meta.url));

it("validates tool arguments (JSON Schema and zod) and the client's output check without new Function", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["--disallow-code-generation-from-strings", FIXTURE], { timeout: 20_000 });
  const out = JSON.parse(stdout) as Record<string, unknown>;
  expect(out.generates).toBe(false);
  expect(out.jsonOk).toEqual({ temp: 3 });
  expect(out.zodOk).toEqual({ temp: 3 });
  expect(out.jsonRefused).toContain('- "n" fails maximum 5 (received 9). Pass a number <= 5.');
  expect(String(out.zodRefused).replace('"zod"', '"json"')).toBe(out.jsonRefused);
  expect(out.strict).toBe('OUTPUT_SCHEMA_VIOLATION: Tool "strict" returned structuredContent that does not match its outputSchema: /temp 21 is greater than 0.');
});
