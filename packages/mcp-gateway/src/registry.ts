/**
 * The registry of the reference: `{"version":1,"clis":{name:{command:[...],description,version}}}`
 * at `~/.milo/registry.json` (Unix) or `%LOCALAPPDATA%\milo\registry.json` (Windows), so CLIs
 * registered there are served by this gateway too. `PROTO_GATEWAY_REGISTRY` or an explicit
 * path overrides it. Writes go to a temporary file renamed over the old one (never a torn file).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { parseGatewayConfig } from "./config";
import { CHILD_NAME } from "./naming";
import type { ChildConfig } from "./types";

/** One registered server. */
export interface RegistryEntry {
  readonly command: readonly string[];
  readonly description?: string;
  readonly version?: string;
}

/** The registry file's content. */
export interface RegistryFile {
  readonly version: 1;
  readonly clis: { readonly [name: string]: RegistryEntry };
}

/** Where the registry lives: `PROTO_GATEWAY_REGISTRY`, else the platform data directory of the reference. */
export function registryPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.PROTO_GATEWAY_REGISTRY) return env.PROTO_GATEWAY_REGISTRY;
  if (platform === "win32") return join(env.LOCALAPPDATA ?? join(homedir(), "AppData", "Local"), "milo", "registry.json");
  return join(env.HOME ?? homedir(), ".milo", "registry.json");
}

/**
 * Reads a JSON file for the gateway (`flag` names where its path came from, for the message).
 * Throws an `Error` naming the file and the fix when it cannot be read or is not JSON;
 * `undefined` for a missing file when `missingOk`.
 */
export async function readJsonFile(path: string, flag: string, missingOk = false): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && missingOk) return undefined;
    const why = code === "ENOENT" ? "ENOENT: not found" : code === "EACCES" ? "EACCES: permission denied" : code === "EISDIR" ? "EISDIR: a directory" : (error as Error).message;
    throw new Error(`cannot read ${path} (${why}): check the path given to ${flag}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${path} is not valid JSON (${(error as Error).message}): fix it, or point ${flag} at another file`, { cause: error });
  }
}

/** Reads the registry; a missing file is an empty registry. Throws `GatewayConfigError` for a malformed one, an `Error` naming the file for one that is not JSON. */
export async function readRegistry(path = registryPath()): Promise<RegistryFile> {
  const value = await readJsonFile(path, "--registry (or PROTO_GATEWAY_REGISTRY)", true);
  if (value === undefined) return { version: 1, clis: {} };
  parseGatewayConfig(value, path);
  return value as RegistryFile;
}

/** The registry's children, for `createGateway`. */
export async function registryChildren(path = registryPath()): Promise<{ readonly [name: string]: ChildConfig }> {
  return parseGatewayConfig(await readRegistry(path), path);
}

async function write(path: string, registry: RegistryFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(registry, null, 2)}\n`, "utf8");
  await rename(tmp, path);
}

/** Adds or replaces `name`; resolves with the entry it replaced, if any. Throws a `TypeError` for a bad name or an empty command. */
export async function installChild(name: string, entry: RegistryEntry, path = registryPath()): Promise<RegistryEntry | undefined> {
  if (!CHILD_NAME.test(name)) throw new TypeError(`install: ${JSON.stringify(name)} is not a valid name: 1-32 of a-z, 0-9 and '-', starting and ending with a letter or digit`);
  if (!Array.isArray(entry.command) || entry.command.length === 0 || entry.command.some((c) => typeof c !== "string")) throw new TypeError("install: give the command after --, e.g. install weather -- node server.js");
  const registry = await readRegistry(path);
  await write(path, { version: 1, clis: { ...registry.clis, [name]: entry } });
  return Object.hasOwn(registry.clis, name) ? registry.clis[name] : undefined;
}

/** Removes `name`; false when it was not registered. */
export async function uninstallChild(name: string, path = registryPath()): Promise<boolean> {
  const registry = await readRegistry(path);
  if (!Object.hasOwn(registry.clis, name)) return false;
  const { [name]: _gone, ...rest } = registry.clis;
  await write(path, { version: 1, clis: rest });
  return true;
}
