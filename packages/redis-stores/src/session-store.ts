/**
 * `SessionStore` on Redis: one hash per session (principal, stream prefix, negotiated version,
 * the server's saved state as JSON) expiring after the idle TTL, pushed back by every request on
 * any instance; a sorted set of live ids (and one per principal) scored by expiry enforces
 * `maxSessions` and `maxSessionsPerPrincipal` across instances, atomically, in Lua.
 */
import type { SessionRecord, SessionStore } from "@proto/transport-http";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { CREATE, DELETE, TOUCH, UPDATE } from "./scripts";

/** Creates the store; keys are `<keyPrefix>s:<id>`, `<keyPrefix>sessions` and `<keyPrefix>sp:<principal>`. */
export function createRedisSessionStore(client: RedisClient, keyPrefix: string): SessionStore {
  const create = createScript(client, CREATE);
  const touch = createScript(client, TOUCH);
  const update = createScript(client, UPDATE);
  const remove = createScript(client, DELETE);
  const all = `${keyPrefix}sessions`;
  const byPrincipal = `${keyPrefix}sp:`;
  const key = (id: string): string => `${keyPrefix}s:${id}`;

  return {
    async create(record, limits) {
      const per = limits.maxSessionsPerPrincipal === undefined ? "" : String(limits.maxSessionsPerPrincipal);
      const args = [record.id, record.principalKey, record.streamPrefix, String(limits.ttlMs), String(limits.maxSessions), per];
      return (await create([key(record.id), all, byPrincipal + record.principalKey], args)) as "created" | "full" | "principal-full";
    },
    async get(id, ttlMs) {
      const fields = (await touch([key(id), all], [id, String(ttlMs), byPrincipal])) as [string, string, string, string] | null;
      if (fields === null) return undefined;
      const [principalKey, streamPrefix, protocolVersion, state] = fields;
      const record: SessionRecord = { id, principalKey, streamPrefix };
      return {
        ...record,
        ...(protocolVersion === "" ? {} : { protocolVersion }),
        ...(state === "" ? {} : { state: JSON.parse(state) as unknown }),
      };
    },
    async update(id, patch) {
      const args: string[] = [];
      if (patch.protocolVersion !== undefined) args.push("protocolVersion", patch.protocolVersion);
      if (patch.state !== undefined) args.push("state", JSON.stringify(patch.state));
      if (args.length > 0) await update([key(id)], args);
    },
    async delete(id) {
      await remove([key(id), all], [id, byPrincipal]);
    },
  };
}
