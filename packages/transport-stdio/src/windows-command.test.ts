import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeForCmd, findWindowsCommand, planSpawn, quoteWindowsArgument } from "./windows-command";
import type { CommandHost } from "./windows-command";

const NODE_DIR = "C:\\Program Files\\nodejs";

function windows(files: readonly string[], env: CommandHost["env"] = {}): CommandHost {
  const set = new Set(files.map((f) => f.toLowerCase()));
  return {
    platform: "win32",
    env: { Path: `C:\\Windows\\system32;"${NODE_DIR}";C:\\tools`, PATHEXT: ".COM;.EXE;.BAT;.CMD;.VBS;.JS", ComSpec: "C:\\Windows\\system32\\cmd.exe", ...env },
    cwd: "C:\\work\\app",
    isFile: (path) => set.has(path.toLowerCase()),
  };
}

// The inverse of quoteWindowsArgument plus escapeForCmd: what cmd.exe, then the MSVCRT parser,
// hand the program for one argument (carets dropped outside nothing, since all is escaped).
function uncmd(text: string): string {
  return text.replace(/\^(.)/g, "$1");
}
function unquote(text: string): string {
  expect(text.startsWith('"') && text.endsWith('"')).toBe(true);
  let out = "";
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; ) {
    let slashes = 0;
    while (body[i + slashes] === "\\") slashes++;
    if (body[i + slashes] === '"') {
      expect(slashes % 2).toBe(1);
      out += "\\".repeat((slashes - 1) / 2) + '"';
      i += slashes + 1;
    } else if (i + slashes === body.length) {
      expect(slashes % 2).toBe(0);
      out += "\\".repeat(slashes / 2);
      i += slashes;
    } else {
      out += "\\".repeat(slashes) + (body[i + slashes] ?? "");
      i += slashes + 1;
    }
  }
  return out;
}

describe("planSpawn", () => {
  it("leaves every command alone off Windows", () => {
    const host = { ...windows([`${NODE_DIR}\\npx.cmd`]), platform: "linux" as const };
    expect(planSpawn("npx", ["-y", "pkg"], host)).toEqual({ command: "npx", args: ["-y", "pkg"], verbatim: false });
  });

  it("runs an .exe found on PATH as it is, and an unknown command as it is (ENOENT comes from the spawn)", () => {
    const host = windows([`${NODE_DIR}\\node.exe`]);
    expect(planSpawn("node", ["server.js"], host)).toEqual({ command: "node", args: ["server.js"], verbatim: false });
    expect(planSpawn("nothing-here", [], host)).toEqual({ command: "nothing-here", args: [], verbatim: false });
  });

  it("runs a .cmd shim found with PATHEXT (PATH and COMSPEC names in any case, quoted PATH entries) through cmd.exe /d /s /c", () => {
    // `npx` without an extension (the sh script npm ships beside npx.cmd) is not a Windows program.
    const host = windows([`${NODE_DIR}\\npx`, `${NODE_DIR}\\npx.cmd`]);
    const plan = planSpawn("npx", ["-y", "@scope/pkg@1.0.0", "--stdio"], host);
    expect(plan).toEqual({
      command: "C:\\Windows\\system32\\cmd.exe",
      args: ["/d", "/s", "/c", '"C:\\Program^ Files\\nodejs\\npx.cmd ^"-y^" ^"@scope/pkg@1.0.0^" ^"--stdio^""'],
      verbatim: true,
    });
  });

  it("prefers PATHEXT order within a directory and PATH order across directories", () => {
    const both = windows([`${NODE_DIR}\\tool.exe`, `${NODE_DIR}\\tool.cmd`]);
    expect(planSpawn("tool", [], both).verbatim).toBe(false);
    const later = windows(["C:\\tools\\uvx.exe", `${NODE_DIR}\\uvx.cmd`]);
    expect(planSpawn("uvx", [], later).verbatim).toBe(true);
    expect(findWindowsCommand("uvx", later)).toBe(`${NODE_DIR}\\uvx.cmd`);
  });

  it("resolves relative and absolute paths against the child's cwd, and commands that name their extension", () => {
    const host = windows(["C:\\work\\app\\bin\\serve.bat", "D:\\x\\run.cmd"]);
    expect(findWindowsCommand("bin\\serve", host)).toBe("C:\\work\\app\\bin\\serve.bat");
    expect(findWindowsCommand("./bin/serve.bat", host)).toBe("C:\\work\\app\\bin\\serve.bat");
    expect(findWindowsCommand("D:\\x\\run", host)).toBe("D:\\x\\run.cmd");
    expect(planSpawn("D:\\x\\run.cmd", [], host).args).toEqual(["/d", "/s", "/c", '"D:\\x\\run.cmd"']);
  });

  it("uses cmd.exe when COMSPEC is not set, and the default PATHEXT when PATHEXT is not", () => {
    const host = windows([`${NODE_DIR}\\npx.cmd`], { ComSpec: undefined, PATHEXT: undefined });
    expect(planSpawn("npx", [], host).command).toBe("cmd.exe");
  });

  it("escapes every cmd.exe metacharacter, so an argument cannot start a second command", () => {
    const host = windows([`${NODE_DIR}\\npx.cmd`]);
    const plan = planSpawn("npx", ['a & calc.exe', "x|y", "%PATH%", '"quoted"', "trail\\"], host);
    const line = plan.args[3] as string;
    expect(line).not.toMatch(/(^|[^^])[&|<>]/);
    expect(line).toContain('^"a^ ^&^ calc.exe^"');
    expect(line).toContain("^%PATH^%");
    expect(line).toContain('^"trail\\\\^"');
  });

  it("escapes twice for npm's node_modules\\.bin shims, which re-parse %*", () => {
    const host = windows(["C:\\work\\app\\node_modules\\.bin\\server.cmd"], { Path: "C:\\work\\app\\node_modules\\.bin" });
    const plan = planSpawn("server", ["a&b"], host);
    expect(plan.args[3]).toBe('"C:\\work\\app\\node_modules\\.bin\\server.cmd ^^^"a^^^&b^^^""');
  });

  it("refuses arguments with line breaks or NUL for cmd.exe, saying what to do instead", () => {
    const host = windows([`${NODE_DIR}\\npx.cmd`]);
    expect(() => planSpawn("npx", ["ok", "two\nlines"], host)).toThrow(/args\[1\] holds a line break or NUL.*npx\.cmd.*env variable/);
    expect(() => planSpawn("npx", ["nul\0"], host)).toThrow(TypeError);
  });

  it("round-trips any argument through the quoting and escaping (what cmd.exe and the program's parser undo)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }).filter((s) => !/[\r\n\0]/.test(s)), (arg) => {
        expect(unquote(uncmd(escapeForCmd(quoteWindowsArgument(arg))))).toBe(arg);
      }),
    );
  });
});
