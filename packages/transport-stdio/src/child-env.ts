/**
 * The environment a spawned server gets. By default only a small set of variables that
 * programs need to run is inherited (PATH, HOME, locale, temp dirs), never the host's secrets;
 * the caller adds what the server needs through `env`.
 */

const posix = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ"];
const windows = [
  "APPDATA", "COMSPEC", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT", "PROCESSOR_ARCHITECTURE",
  "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE", "WINDIR",
];

/** The names inherited by default on this platform. */
export function inheritedNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === "win32" ? windows : posix;
}

/**
 * Builds the child's environment: the inherited set (all of `process.env` when `inheritAll`),
 * then `env` on top; a variable set to `undefined` in `env` is removed. Inherited values that
 * look like exported shell functions (`() {`) are skipped.
 */
export function childEnv(
  env: { readonly [name: string]: string | undefined } | undefined,
  inheritAll: boolean,
  source: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const result: NodeJS.ProcessEnv = {};
  const names = inheritAll ? Object.keys(source) : inheritedNames();
  for (const name of names) {
    const value = source[name];
    if (value !== undefined && !value.startsWith("()")) result[name] = value;
  }
  for (const [name, value] of Object.entries(env ?? {})) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}
