import { EventEmitter } from "node:events";
import type { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { browserCommand, openBrowser } from "./node-browser";

function fakeSpawn(outcome: "spawn" | "error") {
  const calls: { command: string; args: readonly string[]; options: Record<string, unknown> }[] = [];
  const impl = ((command: string, args: readonly string[], options: Record<string, unknown>) => {
    calls.push({ command, args, options });
    const child = Object.assign(new EventEmitter(), { unref: () => undefined });
    queueMicrotask(() => (outcome === "spawn" ? child.emit("spawn") : child.emit("error", new Error("ENOENT"))));
    return child;
  }) as unknown as typeof spawn;
  return { impl, calls };
}

describe("openBrowser", () => {
  it("passes the URL as one argument with shell: false on every platform", async () => {
    const hostile = "https://auth.example/authorize?a=1&b=$(rm -rf ~)&c=`id`;|x";
    for (const platform of ["darwin", "win32", "linux"] as const) {
      const { impl, calls } = fakeSpawn("spawn");
      await openBrowser(hostile, { platform, spawn: impl });
      expect(calls).toHaveLength(1);
      expect(calls[0]?.options.shell).toBe(false);
      expect(calls[0]?.args.at(-1)).toBe(new URL(hostile).href);
      expect(calls[0]?.command).toBe(browserCommand("x", platform).command);
    }
  });

  it("refuses non-http(s) URLs before spawning anything", async () => {
    const { impl, calls } = fakeSpawn("spawn");
    for (const url of ["file:///etc/passwd", "javascript:alert(1)", "calc.exe", "ms-settings:"]) {
      await expect(openBrowser(url, { spawn: impl })).rejects.toMatchObject({ code: OAuthFaultCode.InvalidCallback });
    }
    expect(calls).toHaveLength(0);
  });

  it("reports a missing opener", async () => {
    const { impl } = fakeSpawn("error");
    await expect(openBrowser("https://x.example", { platform: "linux", spawn: impl })).rejects.toThrow(/xdg-open.*by hand/);
  });
});
