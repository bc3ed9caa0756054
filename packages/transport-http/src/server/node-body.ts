/**
 * Reading a Node request body for the Node adapter: a body a framework read before us, or the
 * stream itself with a byte cap and a deadline, as one object per request (no closures).
 */
import type { IncomingMessage } from "node:http";
import type { BodyRead } from "./io";

/** A body read before us, as bytes: bytes and strings as they are, anything else as its JSON. */
function bodyBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
}

/** A body an upstream middleware (express.json()) already consumed and left on `req.body`. */
function parsedBody(req: IncomingMessage): Uint8Array | undefined {
  const body = (req as { body?: unknown }).body;
  return body === undefined || !req.readableEnded ? undefined : bodyBytes(body);
}

/** Reads a body with a byte cap and a deadline. */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onData = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size > this.maxBytes) this.done({ ok: false, reason: "too-large" });
    else this.chunks.push(chunk);
  };
  private readonly onEnd = (): void => {
    const { chunks, size } = this;
    this.done({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
  };
  private readonly onGone = (): void => this.done({ ok: false, reason: "aborted" });

  constructor(
    private readonly req: IncomingMessage,
    private readonly maxBytes: number,
    timeoutMs: number,
    private readonly resolve: (read: BodyRead) => void,
  ) {
    this.timer = setTimeout(() => this.done({ ok: false, reason: "timeout" }), timeoutMs);
    req.on("data", this.onData).on("end", this.onEnd).on("error", this.onGone).on("close", this.onGone);
  }

  private done(result: BodyRead): void {
    clearTimeout(this.timer);
    this.req.off("data", this.onData).off("end", this.onEnd).off("error", this.onGone).off("close", this.onGone);
    if (!result.ok) this.req.pause();
    this.resolve(result);
  }
}

/**
 * The body of `req`: `preRead` (a framework's), else `req.body` left by a middleware (both at
 * once, without a promise), else read from the stream with `maxBytes` and `timeoutMs`.
 */
export function readNodeBody(req: IncomingMessage, preRead: unknown, maxBytes: number, timeoutMs: number): BodyRead | Promise<BodyRead> {
  const parsed = preRead !== undefined ? bodyBytes(preRead) : parsedBody(req);
  if (parsed) return parsed.byteLength > maxBytes ? { ok: false, reason: "too-large" } : { ok: true, body: parsed };
  // the stream was read by someone else and the body not handed over: waiting would hang until bodyTimeoutMs
  if (req.readableEnded) return { ok: false, reason: "consumed" };
  if (Number(req.headers["content-length"] ?? NaN) > maxBytes) return { ok: false, reason: "too-large" };
  return new Promise<BodyRead>((resolve) => new BodyReader(req, maxBytes, timeoutMs, resolve));
}
