/**
 * `EventStore` on Redis streams (MCP 2025-11-25 transports, "Resumability and Redelivery", across
 * instances): one stream per SSE stream, bounded by count and by bytes, expiring with the session
 * (every append pushes the expiry back). Event ids are `<stream id>:<entry id>`, so any instance
 * resolves a `Last-Event-ID`; `follow` and `end` let an instance carry on a stream another one
 * writes: appends are published to the stream's followers in the same atomic step.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";
import type { EventListener, EventReplay, EventStore, StoredEvent } from "@proto/transport-http";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { APPEND, END, REPLAY } from "./scripts";

/** Options of `createRedisEventStore`. */
export interface RedisEventStoreOptions {
  /** Events kept per stream; older ones are dropped (a resume from before them is refused). Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Characters of JSON kept per stream (about bytes for ASCII). Default 4 MiB. */
  readonly maxBytesPerStream?: number;
  /** How long a stream outlives its last event (ms): use the handler's `sessionIdleTtlMs`. Default 30 minutes. */
  readonly ttlMs?: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

const ENTRY_ID = /^\d{1,20}-\d{1,20}$/;

/** Decodes XRANGE entries (`[id, [field, value, ...]]`) into events, skipping priming markers. */
function toEvents(streamId: string, entries: unknown): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (const entry of entries as [string, string[]][]) {
    const [id, fields] = entry;
    const at = fields.indexOf("m");
    if (at < 0 || at % 2 !== 0) continue;
    events.push({ id: `${streamId}:${id}`, message: JSON.parse(fields[at + 1] as string) as JsonRpcMessage });
  }
  return events;
}

/** Creates the store; keys are `<keyPrefix>es:<stream id>` (entries) and `<keyPrefix>esm:<stream id>` (bytes, dropped, ended). */
export function createRedisEventStore(client: RedisClient, subscriber: RedisClient, keyPrefix: string, options: RedisEventStoreOptions = {}): EventStore {
  const maxEvents = String(positive(options.maxEventsPerStream, 1_000, "maxEventsPerStream"));
  const maxBytes = String(positive(options.maxBytesPerStream, 4 * 1024 * 1024, "maxBytesPerStream"));
  const ttl = String(positive(options.ttlMs, 30 * 60_000, "ttlMs"));
  const append = createScript(client, APPEND);
  const replay = createScript(client, REPLAY);
  const end = createScript(client, END);
  const keys = (streamId: string): [string, string] => [`${keyPrefix}es:${streamId}`, `${keyPrefix}esm:${streamId}`];
  const channel = (streamId: string): string => `${keyPrefix}ev:${streamId}`;

  return {
    async append(streamId, message, encoded) {
      const data = message === undefined ? "" : (encoded ?? JSON.stringify(message));
      const weight = String(streamId.length + 16 + data.length);
      const id = (await append(keys(streamId), [data, weight, maxEvents, maxBytes, ttl, channel(streamId)])) as string;
      return `${streamId}:${id}`;
    },
    async replay(lastEventId): Promise<EventReplay | undefined> {
      const at = lastEventId.lastIndexOf(":");
      if (at <= 0) return undefined;
      const streamId = lastEventId.slice(0, at);
      const entryId = lastEventId.slice(at + 1);
      if (!ENTRY_ID.test(entryId)) return undefined;
      const [found, ended, entries] = (await replay(keys(streamId), [entryId])) as [string, string, unknown];
      if (found !== "1") return undefined;
      return { streamId, events: toEvents(streamId, entries), ended: ended === "1" };
    },
    async forget(streamIds) {
      if (streamIds.length > 0) await client.del(streamIds.flatMap(keys));
    },
    async follow(streamId, listener: EventListener) {
      const own = (text: string): void => {
        if (text === "end") return listener(undefined);
        const space = text.indexOf(" ");
        listener({ id: `${streamId}:${text.slice(0, space)}`, message: JSON.parse(text.slice(space + 1)) as JsonRpcMessage });
      };
      await subscriber.subscribe(channel(streamId), own);
      return () => void subscriber.unsubscribe(channel(streamId), own).catch(() => undefined);
    },
    async end(streamId) {
      await end([keys(streamId)[1]], [channel(streamId), ttl]);
    },
  };
}
