import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts","src/testing.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // `./testing` imports the root entry by name: keep it a reference, never a second copy.
  external: ["@proto/jsonrpc"],
});
