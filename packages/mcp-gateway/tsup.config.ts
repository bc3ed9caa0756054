import { defineConfig } from "tsup";

export default defineConfig({
  // The library entries (ESM and CJS, with types); the CLI is its own entry so importing the
  // library never runs it.
  entry: ["src/index.ts", "src/node.ts", "src/cli.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
