/** Runs a Lua script by its SHA-1 (`EVALSHA`), loading it on first use and after a Redis restart (`NOSCRIPT`). */
import { createHash } from "node:crypto";
import type { RedisClient } from "./connection";

/** A script bound to a client. */
export type Script = (keys: readonly string[], args: readonly string[]) => Promise<unknown>;

/** Binds `source` to `client`. */
export function createScript(client: RedisClient, source: string): Script {
  const sha = createHash("sha1").update(source).digest("hex");
  return async (keys, args) => {
    try {
      return await client.sendCommand(["EVALSHA", sha, String(keys.length), ...keys, ...args]);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return client.sendCommand(["EVAL", source, String(keys.length), ...keys, ...args]);
    }
  };
}
