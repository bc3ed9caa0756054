import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { parseArgs, runCli } from "./cli-run";
import { formatGatewayBanner } from "./cli-serve";
import { createGateway } from "./gateway";
import { registryPath } from "./registry";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await runCli(argv, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

describe("proto-gateway", () => {
  it("parses the commands and refuses usage mistakes with exit 2", async () => {
    expect(parseArgs(["--mcp", "--config", "c.json"])).toEqual({ mode: "mcp", name: "proto-gateway", config: "c.json" });
    expect(parseArgs(["--port", "0"])).toMatchObject({ mode: "http", port: 0 });
    expect(parseArgs(["install", "taskman", "--description", "Tasks", "--", "python", "app.py", "--mcp"])).toMatchObject({ mode: "install", target: "taskman", command: ["python", "app.py", "--mcp"], description: "Tasks" });
    expect(() => parseArgs(["--mcp", "--list"])).toThrow(/choose one/);
    expect(() => parseArgs(["install", "x"])).toThrow(/after --/);
    expect(() => parseArgs(["--port", "http"])).toThrow(/port number/);
    const bad = await run(["--frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("unknown argument");
    expect((await run(["--help"])).out).toContain("proto-gateway --mcp");
  });

  it("installs, lists and uninstalls in the registry file, which keeps the reference's shape", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-registry-"));
    dirs.push(dir);
    const file = join(dir, "sub", "registry.json");
    expect((await run(["--registry", file, "--list"])).out).toContain("no servers registered");
    expect((await run(["--registry", file, "install", "taskman", "--description", "A simple task manager", "--", "python", "app.py", "--mcp"])).code).toBe(0);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ version: 1, clis: { taskman: { command: ["python", "app.py", "--mcp"], description: "A simple task manager" } } });
    expect((await run(["--registry", file, "--list"])).out).toBe("taskman  python app.py --mcp  A simple task manager\n");
    expect((await run(["--registry", file, "install", "Bad_Name", "--", "x"])).err).toContain("not a valid name");
    expect((await run(["--registry", file, "uninstall", "taskman"])).code).toBe(0);
    expect((await run(["--registry", file, "uninstall", "taskman"])).code).toBe(1);
  });

  it("says what it replaced, and what to do when the name is missing or not registered", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-registry-"));
    dirs.push(dir);
    const file = join(dir, "registry.json");
    expect((await run(["--registry", file, "install", "tasks", "--", "node", "old.js"])).out).toBe(`registered tasks in ${file}\n`);
    const again = await run(["--registry", file, "install", "tasks", "--", "node", "new.js"]);
    expect(again.code).toBe(0);
    expect(again.out).toBe(`replaced tasks in ${file} (was: node old.js)\n`);
    const missing = await run(["--registry", file, "uninstall", "nothere"]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("proto-gateway --list");
    const bare = await run(["uninstall"]);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/^proto-gateway: uninstall needs a NAME \(proto-gateway uninstall NAME\)/);
  });

  it("names the file and the fix when a config or registry file is missing or not JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-config-"));
    dirs.push(dir);
    const none = await run(["--config", join(dir, "none.json"), "--list"]);
    expect(none.code).toBe(1);
    expect(none.err).toBe(`proto-gateway: cannot read ${join(dir, "none.json")} (ENOENT: not found): check the path given to --config\n`);
    const file = join(dir, "bad.json");
    await import("node:fs/promises").then((fs) => fs.writeFile(file, "{ bad"));
    for (const flag of ["--config", "--registry"]) {
      const bad = await run([flag, file, "--list"]);
      expect(bad.code).toBe(1);
      expect(bad.err).toMatch(new RegExp(`^proto-gateway: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not valid JSON \\(.+\\): fix it`));
    }
  });

  it("says what to do when the port is taken, and warns in the banner when there is nothing to serve", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-port-"));
    dirs.push(dir);
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    try {
      const port = (holder.address() as AddressInfo).port;
      const taken = await run(["--registry", join(dir, "registry.json"), "--port", String(port)]);
      expect(taken.code).toBe(1);
      expect(taken.err).toBe(`proto-gateway: 127.0.0.1:${port} is already in use: stop what holds it, or choose another port with --port N (--port 0 picks a free one)\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    const empty = createGateway({ name: "gw", children: {} });
    try {
      expect(formatGatewayBanner(empty, "stdin/stdout")).toContain("  Warning:   no servers to serve: register one with proto-gateway install NAME -- COMMAND, or pass --config FILE\n");
      // both revisions are served: the banner says so
      expect(formatGatewayBanner(empty, "stdin/stdout")).toContain("  Protocol:  2026-07-28 (per request), 2025-11-25 (sessions)\n");
    } finally {
      await empty.close();
    }
  });

  it("finds the registry where the reference puts it, unless overridden", () => {
    expect(registryPath({ HOME: "/home/u" }, "linux")).toBe("/home/u/.milo/registry.json");
    expect(registryPath({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32")).toContain("milo");
    expect(registryPath({ PROTO_GATEWAY_REGISTRY: "/tmp/r.json", HOME: "/home/u" }, "linux")).toBe("/tmp/r.json");
  });

  it("reports a broken config file with every problem and exit 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gw-config-"));
    dirs.push(dir);
    const file = join(dir, "bad.json");
    await import("node:fs/promises").then((fs) => fs.writeFile(file, JSON.stringify({ mcpServers: { a: { command: 1 }, b: { url: "nope" } } })));
    const result = await run(["--config", file, "--list"]);
    expect(result.code).toBe(1);
    expect(result.err).toContain("mcpServers.a.command");
    expect(result.err).toContain("mcpServers.b.url");
  });
});
