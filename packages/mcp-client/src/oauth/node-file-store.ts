/**
 * A token store in one JSON file (Node only), private to the user: the file is written with
 * mode 0600 (its directory 0700) through a temporary file and a rename, so a crash never
 * leaves half a file, and a file found readable by others is narrowed back to 0600.
 * Writes within one process are serialized; two processes sharing a file are not coordinated
 * beyond the atomic rename (the last writer wins).
 */
import { chmod, mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { OAuthError, OAuthFaultCode } from "./errors";
import { randomToken } from "./pkce";
import { parseStoredAuthorization, type StoredAuthorization, type TokenStore } from "./token-store";

/** Options of `createFileTokenStore`. */
export interface FileTokenStoreOptions {
  /** The JSON file (created with its directory when missing). */
  readonly path: string;
}

interface FileShape {
  readonly version: 1;
  readonly entries: Record<string, unknown>;
}

/** Creates a token store backed by `options.path` (mode 0600). */
export function createFileTokenStore(options: FileTokenStoreOptions): TokenStore {
  const path = options?.path;
  if (typeof path !== "string" || path === "") throw new TypeError("createFileTokenStore: path is required.");
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const read = async (): Promise<Map<string, unknown>> => {
    let text: string;
    try {
      const info = await stat(path);
      if (process.platform !== "win32" && (info.mode & 0o077) !== 0) await chmod(path, 0o600);
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
      throw failed(`read ${path}`, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw failed(`parse ${path} (delete the file to start over)`, error);
    }
    const entries = (parsed as Partial<FileShape> | null)?.entries;
    if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return new Map();
    return new Map(Object.entries(entries));
  };

  const write = async (entries: Map<string, unknown>): Promise<void> => {
    const temporary = `${path}.${randomToken(6)}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const body: FileShape = { version: 1, entries: Object.fromEntries(entries) };
      await writeFile(temporary, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw failed(`write ${path}`, error);
    }
  };

  return {
    load: (key) => serial(async () => parseStoredAuthorization((await read()).get(key))),
    save: (key, value: StoredAuthorization) =>
      serial(async () => {
        const entries = await read();
        entries.set(key, value);
        await write(entries);
      }),
    delete: (key) =>
      serial(async () => {
        const entries = await read();
        if (entries.delete(key)) await write(entries);
      }),
  };
}

function failed(what: string, cause: unknown): OAuthError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new OAuthError(OAuthFaultCode.StoreFailed, `Could not ${what}: ${reason}`, { cause });
}
