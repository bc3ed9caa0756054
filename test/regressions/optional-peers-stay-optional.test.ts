/**
 * Issue 18, "Types and packaging": an optional peer dependency is loaded only where it is needed.
 * `@proto/mcp-apps` serves views without `@proto/mcp-client` and `@proto/transport-stdio` (only
 * its verify CLI and `./node` need them), and `@proto/transport-http` runs without `ws` (loaded by
 * a dynamic `import()` when a WebSocket is used). Each entry is bundled from its sources with
 * esbuild, packages left external (no tsconfig paths, which would inline the sibling packages),
 * and its static imports are read from the metafile: a static
 * import of an optional peer would make the entry fail to load where the peer is not installed.
 */
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The bare specifiers an entry imports statically, at any depth of its own modules (`import type` is erased). */
async function staticImports(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [`${ROOT}${entry}`], bundle: true, write: false, metafile: true, platform: "node", format: "esm", packages: "external", tsconfigRaw: {}, logLevel: "silent", outdir: "/tmp/unused" });
  const found = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const imported of input.imports) if (imported.external && imported.kind !== "dynamic-import") found.add(imported.path);
  }
  return [...found].sort();
}

describe("optional peers stay optional", () => {
  it("@proto/mcp-apps: the main entry imports neither @proto/mcp-client nor @proto/transport-stdio", async () => {
    const imports = await staticImports("packages/mcp-apps/src/index.ts");
    expect(imports.filter((name) => name.startsWith("@proto/mcp-client") || name.startsWith("@proto/transport-stdio"))).toEqual([]);
    expect(imports).toContain("@proto/jsonrpc");
  });

  it("@proto/mcp-apps: ./verify does import @proto/mcp-client (so the check above sees such imports)", async () => {
    expect(await staticImports("packages/mcp-apps/src/verify.ts")).toContain("@proto/mcp-client");
  });

  it("@proto/transport-http: neither entry imports ws statically", async () => {
    for (const entry of ["packages/transport-http/src/index.ts", "packages/transport-http/src/node.ts"]) {
      expect((await staticImports(entry)).filter((name) => name === "ws" || name.startsWith("ws/")), entry).toEqual([]);
    }
  });
});
