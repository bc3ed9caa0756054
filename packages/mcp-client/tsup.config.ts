import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts","src/oauth.ts","src/oauth/node.ts","src/skills.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
