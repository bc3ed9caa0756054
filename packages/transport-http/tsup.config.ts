import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts","src/node.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  // `import.meta.url` (the lazy `ws` loader) in the CommonJS build
  shims: true,
});
