/**
 * Windows launchers without a shell. Node refuses to spawn `.cmd` and `.bat` files directly
 * (since the BatBadBut fix, CVE-2024-27980, `spawn("npx.cmd")` fails with EINVAL) and libuv
 * finds only `.exe`/`.com` files on PATH, so `command: "npx"` fails on Windows. The resolution
 * here does what cross-spawn does, without `shell: true`: look the command up on the child's
 * PATH with PATHEXT; an `.exe`/`.com` runs as it is; any other file (a `.cmd` shim) runs as
 * `cmd.exe /d /s /c "<line>"` with verbatim arguments, where the program and each argument are
 * quoted by the MSVCRT rules and every cmd.exe metacharacter is escaped with `^` (twice for
 * npm's `node_modules\.bin` shims, which hand their arguments to a second cmd.exe parse).
 * Shebang scripts are not interpreted (Windows cannot run them either).
 */
import { statSync } from "node:fs";
import { win32 } from "node:path";
import { fileURLToPath } from "node:url";

/** What a spawn needs: the program, its arguments, and whether they are passed verbatim. */
export interface SpawnPlan {
  readonly command: string;
  readonly args: readonly string[];
  /** True when the arguments are already quoted for cmd.exe (Node's `windowsVerbatimArguments`). */
  readonly verbatim: boolean;
}

/** What the resolution reads; injected in tests. */
export interface CommandHost {
  readonly platform: NodeJS.Platform;
  /** The environment the child gets (PATH, PATHEXT and COMSPEC are read from it, names case-insensitive). */
  readonly env: { readonly [name: string]: string | undefined };
  /** The child's working directory, for commands given as relative paths. */
  readonly cwd: string;
  /** True when `path` is an existing file. */
  readonly isFile: (path: string) => boolean;
}

// cmd.exe's metacharacters, and the space and comma that would split an unquoted line.
const META = /([()\][%!^"`<>&|;, *?])/g;
const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

function envOf(env: CommandHost["env"], name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** The file `command` names on Windows (PATH and PATHEXT lookup), or undefined when none exists. */
export function findWindowsCommand(command: string, host: CommandHost): string | undefined {
  const exts = (envOf(host.env, "PATHEXT") ?? DEFAULT_PATHEXT).split(";").filter((e) => e.startsWith("."));
  const hasExt = exts.some((e) => command.toUpperCase().endsWith(e.toUpperCase()));
  const names = [...(hasExt ? [command] : []), ...exts.map((e) => `${command}${e.toLowerCase()}`)];
  const dirs = /[\\/]/.test(command) || win32.isAbsolute(command) ? [host.cwd] : (envOf(host.env, "PATH") ?? "").split(";").map((d) => d.replace(/^"(.*)"$/, "$1")).filter((d) => d !== "");
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = win32.resolve(dir, name);
      if (host.isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Quotes one argument for the MSVCRT command-line parser: backslashes before a quote (or the end) doubled, quotes escaped. */
export function quoteWindowsArgument(arg: string): string {
  const escaped = arg.replace(/(\\*)"/g, (_m, slashes: string) => `${slashes}${slashes}\\"`).replace(/(\\+)$/, (_m, slashes: string) => `${slashes}${slashes}`);
  return `"${escaped}"`;
}

/** Escapes every cmd.exe metacharacter of `text` with `^`. */
export function escapeForCmd(text: string): string {
  return text.replace(META, "^$1");
}

/**
 * How to spawn `command` with `args` on `host.platform`: unchanged off Windows and for
 * `.exe`/`.com` files (or when nothing is found: the spawn then fails with ENOENT as usual);
 * through `cmd.exe /d /s /c` for other files. Throws a `TypeError` for an argument cmd.exe
 * cannot carry safely (a line break or NUL).
 */
export function planSpawn(command: string, args: readonly string[], host: CommandHost): SpawnPlan {
  if (host.platform !== "win32") return { command, args, verbatim: false };
  const file = findWindowsCommand(command, host);
  if (file === undefined || /\.(?:exe|com)$/i.test(file)) return { command, args, verbatim: false };
  const bad = args.findIndex((arg) => /[\r\n\0]/.test(arg));
  if (bad >= 0) {
    throw new TypeError(`args[${bad}] holds a line break or NUL, which ${win32.basename(file)} (run through cmd.exe) cannot receive safely; pass it another way (an env variable, a file)`);
  }
  // npm's shims re-run `%*` through cmd.exe, which undoes one level of escaping.
  const twice = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(file);
  const escapeArg = (arg: string) => (twice ? escapeForCmd(escapeForCmd(quoteWindowsArgument(arg))) : escapeForCmd(quoteWindowsArgument(arg)));
  const line = [escapeForCmd(win32.normalize(file)), ...args.map(escapeArg)].join(" ");
  return { command: envOf(host.env, "COMSPEC") ?? "cmd.exe", args: ["/d", "/s", "/c", `"${line}"`], verbatim: true };
}

/** The host of this process, for the child's environment and working directory. */
export function processCommandHost(env: CommandHost["env"], cwd: string | URL | undefined): CommandHost {
  return {
    platform: process.platform,
    env,
    cwd: cwd === undefined ? process.cwd() : typeof cwd === "string" ? cwd : fileURLToPath(cwd),
    isFile: (path) => {
      try {
        return statSync(path).isFile();
      } catch {
        return false;
      }
    },
  };
}
