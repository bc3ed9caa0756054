import { mkdtemp, readdir, readFile, rm, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { createFileTokenStore } from "./node-file-store";
import type { StoredAuthorization } from "./token-store";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "proto-oauth-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry: StoredAuthorization = { clients: { "https://as": { clientId: "c", clientSecret: "s", redirectUris: ["http://127.0.0.1:1/cb"] } } };
const posix = process.platform !== "win32";

describe("file token store", () => {
  it("creates the file with mode 0600 in a 0700 directory, and reads it back in a new store", async () => {
    const path = join(dir, "nested", "tokens.json");
    await createFileTokenStore({ path }).save("https://mcp.example/mcp", entry);
    if (posix) {
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(dir, "nested"))).mode & 0o777).toBe(0o700);
    }
    expect(await createFileTokenStore({ path }).load("https://mcp.example/mcp")).toEqual(entry);
    expect(JSON.parse(await readFile(path, "utf8"))).toMatchObject({ version: 1 });
  });

  it("keeps several keys, deletes one, and leaves no temporary files", async () => {
    const path = join(dir, "tokens.json");
    const store = createFileTokenStore({ path });
    await Promise.all([store.save("a", entry), store.save("b", entry), store.save("__proto__", entry)]);
    await store.delete("a");
    expect(await store.load("a")).toBeUndefined();
    expect(await store.load("b")).toEqual(entry);
    expect(await store.load("__proto__")).toEqual(entry);
    expect(await readdir(dir)).toEqual(["tokens.json"]);
  });

  it("narrows a file others can read back to 0600", async () => {
    if (!posix) return;
    const path = join(dir, "tokens.json");
    await writeFile(path, JSON.stringify({ version: 1, entries: {} }));
    await chmod(path, 0o644);
    await createFileTokenStore({ path }).load("x");
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("answers undefined for a missing file and STORE_FAILED for a corrupt one", async () => {
    expect(await createFileTokenStore({ path: join(dir, "none.json") }).load("x")).toBeUndefined();
    const path = join(dir, "bad.json");
    await writeFile(path, "{not json", { mode: 0o600 });
    await expect(createFileTokenStore({ path }).load("x")).rejects.toMatchObject({ code: OAuthFaultCode.StoreFailed, message: expect.stringContaining("delete the file") });
  });

  it("rejects a missing path", () => {
    expect(() => createFileTokenStore({ path: "" })).toThrow(TypeError);
  });
});
