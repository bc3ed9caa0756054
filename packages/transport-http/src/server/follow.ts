/**
 * Follows, on this instance, a stream another instance still writes (a shared event store: MCP
 * 2025-11-25 transports, "Resumability and Redelivery", across a load balancer): listens to the
 * store first, then replays what came after `Last-Event-ID`, then writes what arrives live,
 * skipping what the replay already carried. No loss, no duplicates, in order; ends when the
 * stream ends or the client goes away. The replayed ids are kept while following: the live
 * notification of an event the replay already carried may arrive late (pub/sub and commands
 * travel on different connections).
 */
import { encode } from "@proto/jsonrpc";
import type { EventStore, StoredEvent } from "./event-store";
import { HttpServerError, HttpFaultCode } from "./errors";
import type { ConnectionWriter } from "./io";
import { SSE_KEEP_ALIVE, sseMessage } from "./sse";
import type { StreamSettings } from "./stream";
import { every } from "./timers";

/** What following needs. */
export interface FollowContext {
  readonly store: EventStore;
  readonly follow: NonNullable<EventStore["follow"]>;
  readonly settings: StreamSettings;
  fault(error: Error): void;
}

/** Writes the stream's events after `lastEventId` on `connection`, then its live ones, until it ends. */
export function followStream(fc: FollowContext, streamId: string, lastEventId: string, connection: ConnectionWriter): void {
  let stop: (() => void) | undefined;
  let done = false;
  let replayed = false;
  const buffered: (StoredEvent | undefined)[] = [];
  const seen = new Set<string>();
  let chain: Promise<void> = Promise.resolve();
  const keepAlive = fc.settings.keepAliveMs > 0 ? every(fc.settings.keepAliveMs, () => void connection.write(SSE_KEEP_ALIVE)?.catch(() => undefined)) : undefined;

  function finish(): void {
    if (done) return;
    done = true;
    if (keepAlive !== undefined) clearInterval(keepAlive);
    stop?.();
    connection.end();
  }

  function write(event: StoredEvent | undefined): void {
    chain = chain
      .then(async () => {
        if (done || connection.closed) return finish();
        if (event === undefined) return finish();
        await connection.write(sseMessage(encode(event.message), event.id));
      })
      .catch(() => finish());
  }

  connection.onClose(finish);
  void (async () => {
    stop = await fc.follow(streamId, (event) => {
      if (done) return;
      // an event appended before the replay ran may still arrive after it (another connection): the replay carried it
      if (replayed) {
        if (event === undefined || !seen.has(event.id)) write(event);
      } else buffered.push(event);
    });
    if (done) return stop();
    const replay = await fc.store.replay(lastEventId);
    if (!replay || replay.streamId !== streamId) return finish();
    for (const event of replay.events) {
      seen.add(event.id);
      write(event);
    }
    replayed = true;
    if (replay.ended === true) return write(undefined);
    // what arrived while replaying may also be in the replay: written once (`seen` holds at most one replay: bounded by the store's per-stream cap)
    for (const event of buffered.splice(0)) if (event === undefined || !seen.has(event.id)) write(event);
  })().catch((cause: unknown) => {
    fc.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, `following stream ${streamId} failed`, { cause }));
    finish();
  });
}
