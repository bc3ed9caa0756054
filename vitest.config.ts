import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const packages = ["jsonrpc", "transport-stdio", "transport-http", "mcp-protocol", "mcp-server", "mcp-client", "mcp-apps", "mcp-gateway", "redis-stores"];

// Tests run against sources: `@proto/x` is `packages/x/src/index.ts`, `@proto/x/sub` is `packages/x/src/sub.ts`.
export default defineConfig({
  resolve: {
    alias: packages.flatMap((name) => [
      { find: new RegExp(`^@proto/${name}$`), replacement: `${root}packages/${name}/src/index.ts` },
      { find: new RegExp(`^@proto/${name}/(.+)$`), replacement: `${root}packages/${name}/src/$1.ts` },
    ]),
  },
  test: {
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts", "examples/*/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
