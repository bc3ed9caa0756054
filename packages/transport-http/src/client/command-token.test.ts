import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { commandToken } from "./command-token";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive, initialize } from "./testing/drive";
import { startScriptedMcp } from "./testing/scripted-mcp";
import type { ScriptedMcp } from "./testing/scripted-mcp";

const node = process.execPath;
let dir: string | undefined;
let server: ScriptedMcp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("commandToken", () => {
  it("passes arguments as they are: `$(...)` and `;` are never shell-interpreted", async () => {
    dir = mkdtempSync(join(tmpdir(), "proto-token-"));
    const marker = join(dir, "pwned");
    const hostile = `$(touch${"${IFS}"}${marker});touch${"${IFS}"}${marker}&&\`touch${"${IFS}"}${marker}\``;
    const auth = commandToken({ command: node, args: ["-e", "process.stdout.write(process.argv[1])", hostile] });
    expect(await auth.token()).toBe(hostile);
    expect(existsSync(marker)).toBe(false);
  });

  it("runs once, caches, and runs again once after a 401", async () => {
    dir = mkdtempSync(join(tmpdir(), "proto-token-"));
    const counter = join(dir, "runs");
    const script = `const fs=require("fs");const n=(fs.existsSync(process.argv[1])?Number(fs.readFileSync(process.argv[1],"utf8")):0)+1;fs.writeFileSync(process.argv[1],String(n));console.log(n===1?"stale":"good")`;
    const auth = commandToken({ command: node, args: ["-e", script, counter] });
    server = await startScriptedMcp({
      refuse: (req) => (req.headers.authorization === "Bearer good" ? undefined : { status: 401, headers: { "www-authenticate": "Bearer" } }),
    });
    const { peer } = await drive(createStreamableHttpClientTransport(server.url, { auth, standaloneStream: false }));
    await initialize(peer);
    await peer.request("tools/list");
    expect(readFileSync(counter, "utf8")).toBe("2");
    expect(server.seen.map((r) => r.headers.authorization)).toEqual(["Bearer stale", "Bearer good", "Bearer good", "Bearer good"]);
    await peer.close();
  });

  it("says why a command failed: exit code and stderr, or not found", async () => {
    const failing = commandToken({ command: node, args: ["-e", "console.error('not logged in'); process.exit(3)"] });
    await expect(failing.token()).rejects.toThrow(/failed \(exit code 3\): not logged in/);
    const missing = commandToken({ command: "/nonexistent/proto-token-helper" });
    await expect(missing.token()).rejects.toThrow(/not found/);
    const silent = commandToken({ command: node, args: ["-e", ""] });
    await expect(silent.token()).rejects.toThrow(/printed no token/);
  });

  it("refuses misuse with a TypeError", () => {
    expect(() => commandToken({ command: "" })).toThrow(TypeError);
    expect(() => commandToken({ command: "gh", args: "auth token" as unknown as string[] })).toThrow(/array of strings/);
  });
});
