/**
 * Reads a `text/event-stream` body with eventsource-parser, with a cap on the size of one
 * event (the parser's buffer), and reports events and `retry` fields as they come.
 */
import { ParseError, createParser } from "eventsource-parser";
import { HttpClientError, HttpClientFaultCode } from "./http-error";

/** One server-sent event. */
export interface SseEvent {
  /** The `id` field, when the event had one. */
  readonly id: string | undefined;
  /** The `event` field, when the event had one (`message` is implied otherwise). */
  readonly event: string | undefined;
  /** The `data` field (lines joined with `\n`); empty for a priming event. */
  readonly data: string;
}

/** Receives what `readSse` reads. */
export interface SseHandlers {
  /** One event; return true to stop reading (the stream owes nothing more). */
  event(event: SseEvent): boolean | void;
  /** The server's `retry` field, in milliseconds. */
  retry(ms: number): void;
}

/** How a read ended: the server closed the body, or a handler said the stream was complete. */
export type SseEnd = "ended" | "stopped";

/**
 * Reads an SSE body to its end. Resolves `"ended"` when the server closed it, `"stopped"`
 * when a handler returned true (the body is then cancelled). Rejects when the read fails
 * (a dropped connection, an abort) or an event exceeds `maxEventChars`.
 */
export async function readSse(body: ReadableStream<Uint8Array>, handlers: SseHandlers, maxEventChars: number): Promise<SseEnd> {
  let stop = false;
  let overflow: ParseError | undefined;
  const parser = createParser({
    maxBufferSize: maxEventChars,
    onEvent(message) {
      if (stop || overflow) return;
      // The parser caps only what it buffers across chunks; an event that came whole is checked here.
      if (message.data.length > maxEventChars) {
        overflow = new ParseError(`An event of ${message.data.length} characters`, { type: "max-buffer-size-exceeded" });
        return;
      }
      if (handlers.event({ id: message.id, event: message.event, data: message.data }) === true) stop = true;
    },
    onRetry(ms) {
      handlers.retry(ms);
    },
    onError(error) {
      if (error.type === "max-buffer-size-exceeded") overflow = error;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        parser.feed(decoder.decode());
        return stop ? "stopped" : "ended";
      }
      parser.feed(decoder.decode(value, { stream: true }));
      if (overflow) {
        throw new HttpClientError(
          HttpClientFaultCode.Oversized,
          `An SSE event exceeds maxMessageBytes (${maxEventChars}); the stream was dropped: raise the option if such messages are expected`,
        );
      }
      if (stop) return "stopped";
    }
  } finally {
    if (stop || overflow) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
