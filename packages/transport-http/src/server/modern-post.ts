/**
 * Serving a modern POST (MCP 2026-07-28 basic/transports/streamable-http): no session is minted
 * or looked up (`Mcp-Session-Id` and `Last-Event-ID` are ignored); the request goes to a
 * throwaway transport connected for this POST alone, answered as JSON or a request-scoped SSE
 * stream, with the HTTP status of its answer (`modernStatus`). The POST's stream closing is the
 * cancellation. Notifications get an empty 202. Scopes are checked as for every POST.
 */
import { deliverFrame } from "@proto/jsonrpc";
import type { DecodeResult, ExchangeInfo, JsonRpcMessage, Principal } from "@proto/jsonrpc";
import { checkScopes } from "./auth-step";
import { openSession } from "./context";
import type { CoreContext } from "./context";
import { PostExchange } from "./exchange";
import { errorAnswer, isAnswer } from "./http-util";
import type { HttpAnswer, HttpIn, OutHeaders } from "./io";
import { modernStatus } from "./modern-ladder";
import type { PostVerdict } from "./modern-ladder";

/** What a modern POST needs from the POST handler. */
export interface ModernPost {
  readonly input: HttpIn;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly messages: readonly JsonRpcMessage[];
  readonly principal: Principal | undefined;
}

/** Serves a POST the ladder classified as modern or refused, and returns its answer. */
export async function serveModernPost(ctx: CoreContext, verdict: Exclude<PostVerdict, { kind: "legacy" }>, post: ModernPost): Promise<HttpAnswer> {
  const { cors } = post;
  if (verdict.kind === "refused") return { status: verdict.status, headers: { "content-type": "application/json", ...cors }, body: JSON.stringify(verdict.body) };
  if (verdict.kind === "modern-notification") return { status: 202, headers: cors };
  const forbidden = checkScopes(ctx.opts, ctx.metadataUrl, post.messages, post.principal, cors);
  if (forbidden) return forbidden;
  const session = await openSession(ctx, post.principal, false, cors, undefined, true);
  if (isAnswer(session)) return session;
  const sink = session.sink;
  if (!sink) {
    void session.close();
    return errorAnswer(500, "the session has no sink", cors);
  }
  const headers = post.input.headers();
  const info: ExchangeInfo = post.principal ? { transport: "http", principal: post.principal, headers } : { transport: "http", headers };
  let answer!: (answer: HttpAnswer) => void;
  const answered = new Promise<HttpAnswer>((resolve) => (answer = resolve));
  const exchange = new PostExchange({
    info,
    input: post.input,
    answer,
    // an error answer keeps its status (404, 400) only as JSON; SSE starts when notifications come first
    mode: ctx.opts.responseMode === "json" ? "json" : "auto",
    batch: false,
    answered: true,
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
  return answered;
}
