/**
 * The event-store side of one logical stream (`stream.ts`): appending its events (with their ids
 * checked unless the store is this package's own) and replaying what came after a `Last-Event-ID`.
 */
import { encode } from "@proto/jsonrpc";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import { mintsValidIds } from "./event-store";
import type { EventStore } from "./event-store";
import type { ConnectionWriter } from "./io";
import { isValidEventId, sseMessage } from "./sse";
import type { StreamHooks } from "./stream-types";

/** The stored events of one stream; faults go to the stream's `fault` hook before they are thrown. */
export class StreamEvents {
  /** The store is ours: its ids need no check. */
  private readonly trusted: boolean;

  constructor(
    private readonly id: string,
    private readonly store: EventStore,
    private readonly hooks: StreamHooks,
  ) {
    this.trusted = mintsValidIds(store);
  }

  /** Stores `message` (undefined: the priming marker) and returns its event id, at once when the store answers at once. */
  append(message: JsonRpcMessage | undefined, data?: string): string | Promise<string> {
    const store = this.store;
    let eventId;
    try {
      eventId = store.append(this.id, message, data);
    } catch (cause) {
      throw this.appendFailed(cause);
    }
    if (typeof eventId === "string" && this.trusted) return eventId;
    if (typeof eventId === "string") return this.checked(eventId);
    return Promise.resolve(eventId).then(
      (id) => this.checked(id),
      (cause: unknown) => {
        throw this.appendFailed(cause);
      },
    );
  }

  private appendFailed(cause: unknown): HttpServerError {
    const error = new HttpServerError(HttpFaultCode.EventStoreFailed, `event store append failed on stream ${this.id}`, { cause });
    this.hooks.fault(error);
    return error;
  }

  private checked(eventId: unknown): string {
    if (typeof eventId === "string" && eventId !== "" && isValidEventId(eventId)) return eventId;
    const error = new HttpServerError(HttpFaultCode.EventStoreFailed, `event store returned an invalid event id for stream ${this.id}: ids must be non-empty strings without line breaks`);
    this.hooks.fault(error);
    throw error;
  }

  /** Writes the events after `lastEventId` onto `target`; false when the id is not of this stream or the store cannot replay it. */
  async replayOnto(target: ConnectionWriter, lastEventId: string): Promise<boolean> {
    let replay;
    try {
      replay = await this.store.replay(lastEventId);
    } catch (cause) {
      this.hooks.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, `event store replay failed on stream ${this.id}`, { cause }));
      return false;
    }
    if (!replay || replay.streamId !== this.id) return false;
    for (const event of replay.events) await target.write(sseMessage(encode(event.message), event.id));
    return true;
  }
}
