/**
 * `RequestJournal` on Redis: one hash per instance (`<keyPrefix>jn:<instance>`, a JSON entry per
 * POST stream plus its outbound request ids), a lease key per instance renewed by the heartbeat,
 * and the set of instances with a journal. Claiming the journals of instances whose lease expired
 * is one Lua script, so each orphaned request is claimed by exactly one survivor.
 */
import type { JournalEntry, RequestJournal } from "@proto/transport-http";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { OUTBOUND, TAKE_OVER } from "./scripts";

function parseEntries(pairs: readonly string[]): JournalEntry[] {
  const outbound = new Map<string, string[]>();
  const entries: JournalEntry[] = [];
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i] as string;
    if (field.startsWith("o:")) outbound.set(field.slice(2), (pairs[i + 1] as string).split(","));
  }
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const field = pairs[i] as string;
    if (field.startsWith("o:")) continue;
    try {
      const entry = JSON.parse(pairs[i + 1] as string) as JournalEntry;
      entries.push({ ...entry, outbound: outbound.get(field) ?? [] });
    } catch {
      // a malformed entry (another writer) cannot be answered: skipped
    }
  }
  return entries;
}

/** Creates the journal; keys are `<keyPrefix>jn:<instance>`, `<keyPrefix>lease:<instance>` and `<keyPrefix>jinst`. */
export function createRedisRequestJournal(client: RedisClient, keyPrefix: string): RequestJournal {
  const outbound = createScript(client, OUTBOUND);
  const takeOver = createScript(client, TAKE_OVER);
  const journal = (instance: string): string => `${keyPrefix}jn:${instance}`;
  const instances = `${keyPrefix}jinst`;
  return {
    async begin(instance, entry) {
      const { outbound: _none, ...kept } = entry;
      await client.hSet(journal(instance), entry.streamId, JSON.stringify(kept));
    },
    async outbound(instance, streamId, requestId) {
      await outbound([journal(instance)], [streamId, requestId]);
    },
    async end(instance, streamId) {
      await client.hDel(journal(instance), [streamId, `o:${streamId}`]);
    },
    async heartbeat(instance, ttlMs) {
      await Promise.all([client.set(`${keyPrefix}lease:${instance}`, "1", { PX: ttlMs }), client.sAdd(instances, instance)]);
    },
    async takeOver(instance) {
      return parseEntries((await takeOver([instances], [instance, keyPrefix])) as string[]);
    },
  };
}
