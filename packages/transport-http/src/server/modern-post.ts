/**
 * Serving a modern POST (MCP 2026-07-28 basic/transports/streamable-http): no session is minted
 * or looked up (`Mcp-Session-Id` and `Last-Event-ID` are ignored); the request goes to a
 * throwaway transport connected for this POST alone, answered as JSON or a request-scoped SSE
 * stream, with the HTTP status of its answer (`modernStatus`). The POST's stream closing is the
 * cancellation. Notifications get an empty 202.
 */
import { deliverFrame } from "@proto/jsonrpc";
import type { DecodeResult, ExchangeInfo, Principal } from "@proto/jsonrpc";
import { openSession } from "./context";
import type { CoreContext } from "./context";
import { PostExchange } from "./exchange";
import type { HttpIn, HttpOut, OutHeaders } from "./io";
import { modernStatus } from "./modern-ladder";
import type { PostVerdict } from "./modern-ladder";

/** What a modern POST needs from the POST handler. */
export interface ModernPost {
  readonly input: HttpIn;
  readonly out: HttpOut;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly principal: Principal | undefined;
}

/** Serves a POST the ladder classified as modern or refused. */
export async function serveModernPost(ctx: CoreContext, verdict: Exclude<PostVerdict, { kind: "legacy" }>, post: ModernPost): Promise<void> {
  const { out, cors } = post;
  if (verdict.kind === "refused") {
    out.send(verdict.status, { "content-type": "application/json", ...cors }, JSON.stringify(verdict.body));
    return;
  }
  if (verdict.kind === "modern-notification") {
    out.send(202, cors);
    return;
  }
  const session = await openSession(ctx, post.principal, false, out, cors, true);
  if (!session) return;
  const sink = session.sink;
  if (!sink) {
    void session.close();
    return;
  }
  const headers = post.input.headers();
  const info: ExchangeInfo = post.principal ? { transport: "http", principal: post.principal, headers } : { transport: "http", headers };
  const exchange = new PostExchange({
    info,
    out,
    mode: ctx.opts.responseMode,
    batch: false,
    expected: [verdict.request.id],
    headers: { ...cors, "x-accel-buffering": "no" },
    openStream: (hooks) => session.openStream(hooks),
    prime: false,
    unsolicited: undefined,
    onResponse: undefined,
    onEnd: () => void session.close(),
    fault: ctx.fault,
    statusOf: modernStatus,
  });
  session.track(exchange);
  deliverFrame(post.decoded, sink, exchange);
}
