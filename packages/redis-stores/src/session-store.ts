/**
 * `SessionStore` on Redis: one hash per session (principal, stream prefix, negotiated version,
 * the server's saved state as JSON) expiring after the idle TTL, pushed back by every request on
 * any instance; a sorted set of live ids (and one per principal) scored by expiry enforces
 * `maxSessions` and `maxSessionsPerPrincipal` across instances, atomically, in Lua; one per
 * anonymous fair-share holder (and a set of holders) lets `evictOne` find the biggest holder's LRU record.
 */
import type { SessionMember, SessionRecord, SessionStore } from "@proto/transport-http";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { CREATE, DELETE, EVICT, MEMBERS, TOUCH, UPDATE } from "./session-scripts";

/**
 * Creates the store; keys are `<keyPrefix>s:<id>`, `<keyPrefix>sessions`,
 * `<keyPrefix>sp:<principal or holder>`, `<keyPrefix>holders`, and for topics
 * `<keyPrefix>st:<id>` (a session's) and `<keyPrefix>t:<topic>` (a topic's sessions). `ttlMs` is the handler's `sessionIdleTtlMs`.
 */
export function createRedisSessionStore(client: RedisClient, keyPrefix: string, ttlMs = 30 * 60_000): SessionStore {
  const create = createScript(client, CREATE);
  const touch = createScript(client, TOUCH);
  const update = createScript(client, UPDATE);
  const remove = createScript(client, DELETE);
  const members = createScript(client, MEMBERS);
  const evict = createScript(client, EVICT);
  const all = `${keyPrefix}sessions`;
  const byPrincipal = `${keyPrefix}sp:`;
  const holders = `${keyPrefix}holders`;
  const key = (id: string): string => `${keyPrefix}s:${id}`;
  const topicsOf = `${keyPrefix}st:`;
  const topicKey = `${keyPrefix}t:`;

  return {
    async create(record, limits) {
      const per = limits.maxSessionsPerPrincipal === undefined ? "" : String(limits.maxSessionsPerPrincipal);
      const holder = record.holder ?? record.principalKey;
      const args = [record.id, record.principalKey, record.streamPrefix, String(limits.ttlMs), String(limits.maxSessions), per, topicsOf, topicKey, holder, byPrincipal];
      return (await create([key(record.id), all, byPrincipal + record.principalKey, byPrincipal + holder, holders], args)) as "created" | "full" | "principal-full";
    },
    async get(id, ttlMs) {
      const fields = (await touch([key(id), all, topicsOf + id], [id, String(ttlMs), byPrincipal])) as [string, string, string, string] | null;
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
      const args: string[] = [patch.topics === undefined ? "" : JSON.stringify(patch.topics), topicKey, id, String(ttlMs)];
      if (patch.protocolVersion !== undefined) args.push("protocolVersion", patch.protocolVersion);
      if (patch.state !== undefined) args.push("state", JSON.stringify(patch.state));
      if (args.length > 4 || patch.topics !== undefined) await update([key(id), topicsOf + id], args);
    },
    async delete(id) {
      await remove([key(id), all, topicsOf + id], [id, byPrincipal, topicKey, byPrincipal]);
    },
    async evictOne() {
      const id = (await evict([all, holders], [key(""), byPrincipal, byPrincipal, topicsOf, topicKey])) as string | null;
      return id ?? undefined;
    },
    async members(topic, limit) {
      const pairs = (await members([topicKey + topic], [key(""), String(limit)])) as string[];
      const found: SessionMember[] = [];
      for (let i = 0; i + 1 < pairs.length; i += 2) found.push({ id: pairs[i] as string, streamPrefix: pairs[i + 1] as string });
      return found;
    },
  };
}
