/**
 * The runtime-neutral core of the Streamable HTTP server: routes one request (metadata, Host and
 * Origin checks, CORS, POST/GET/DELETE) read through `HttpIn`, and returns its `HttpAnswer`, as a
 * Web `fetch` handler does. The Web and Node adapters turn answers into responses; neither adds
 * behaviour.
 */
import { protectedResourceMetadata, protectedResourceMetadataPaths, protectedResourceMetadataUrl } from "../auth/metadata";
import { authenticateRequest } from "./auth-step";
import { checkVersion, findSession } from "./context";
import type { CoreContext } from "./context";
import { corsHeaders, corsOriginList, preflightHeaders } from "./cors";
import { HttpServerError, HttpFaultCode } from "./errors";
import { handleGet } from "./get";
import { hasModernHeader } from "./modern-ladder";
import { checkHostAndOrigin, wildcardBindWarning } from "./guards";
import type { HostCheckOptions } from "./guards";
import { errorAnswer, isAnswer } from "./http-util";
import type { FullAnswer, HttpAnswer, HttpIn, OutHeaders } from "./io";
import { resolveOptions } from "./options";
import type { StreamableHttpServerOptions } from "./options";
import { handlePost } from "./post";
import { createSessionRegistry } from "./registry";
import { sharedContext, sharedUnavailable } from "./shared";
import { startTakeover } from "./shared-journal";

/** The core: `handle` one request and return its answer (it never rejects); `close` ends every session. */
export interface Core {
  handle(input: HttpIn): Promise<HttpAnswer>;
  /** `handle` for adapters that can take an answer at once: the answer itself when no step had to wait, else its promise (which never rejects). */
  serve(input: HttpIn): HttpAnswer | Promise<HttpAnswer>;
  close(): Promise<void>;
  /** Live sessions (for metrics and tests). */
  readonly sessionCount: number;
  /** Closes sessions idle past their TTL now; returns how many. */
  sweep(): number;
  /** Told the address the server listens on: warns once through `logger` on a wildcard bind without `allowedHosts`. */
  bound(address: string): void;
}

/** Creates the core from handler options (validated here: misuse throws a `TypeError`). */
export function createCore(options: StreamableHttpServerOptions): Core {
  const opts = resolveOptions(options);
  const resource = opts.protectedResource;
  const metadataUrl = resource ? protectedResourceMetadataUrl(resource.resource) : undefined;
  const metadataBody = resource ? JSON.stringify(protectedResourceMetadata(resource)) : undefined;
  const metadataPaths = new Set(resource ? protectedResourceMetadataPaths(resource.resource) : []);
  const corsOrigins = corsOriginList(opts.cors);
  const registry = createSessionRegistry({
    idleTtlMs: opts.sessionIdleTtlMs,
    maxSessions: opts.maxSessions,
    evictWhenFull: opts.evictWhenFull,
    now: opts.now,
    sweepMs: Math.min(opts.sessionIdleTtlMs, 60_000),
  });
  const ctx: CoreContext = {
    opts,
    registry,
    settings: { store: opts.eventStore, retryMs: opts.retryMs, keepAliveMs: opts.keepAliveMs, closeAfterMs: opts.closeSseAfterMs },
    metadataUrl,
    shared: opts.shared === undefined ? undefined : sharedContext(opts.shared),
    fault: (error) => opts.logger?.warn(error.message, error),
  };
  let closed = false;
  let warned = false;
  const { shared } = ctx;
  const stopTakeover = shared?.journal === undefined || opts.eventStore?.end === undefined ? undefined : startTakeover(ctx, shared, shared.journal);

  // the verdict of the last Host/Origin/address seen: a client sends the same ones on every request
  let lastHost: string | undefined;
  let lastOrigin: string | undefined;
  let lastLocal: string | undefined;
  let lastVerdict: string | undefined;
  let checked = false;

  /** `checkHostAndOrigin`, remembered for the values of the last request. */
  function guard(host: string | undefined, origin: string | undefined, localAddress: string | undefined, hostCheck: HostCheckOptions): string | undefined {
    if (checked && host === lastHost && origin === lastOrigin && localAddress === lastLocal) return lastVerdict;
    lastVerdict = checkHostAndOrigin({ host, origin, localAddress }, hostCheck, corsOrigins);
    lastHost = host;
    lastOrigin = origin;
    lastLocal = localAddress;
    checked = true;
    return lastVerdict;
  }

  function serveMetadata(input: HttpIn): FullAnswer {
    const headers: OutHeaders = { "access-control-allow-origin": "*" };
    if (input.method === "OPTIONS") return { status: 204, headers: { ...headers, "access-control-allow-methods": "GET, OPTIONS", "access-control-max-age": "600" } };
    if (input.method !== "GET" && input.method !== "HEAD") return errorAnswer(405, "use GET", { ...headers, allow: "GET, OPTIONS" });
    const answer = { status: 200, headers: { ...headers, "content-type": "application/json", "cache-control": "max-age=3600" } };
    return input.method === "HEAD" || metadataBody === undefined ? answer : { ...answer, body: metadataBody };
  }

  async function handleDelete(input: HttpIn, cors: OutHeaders): Promise<HttpAnswer> {
    const auth = await authenticateRequest(opts, metadataUrl, input, cors);
    if (isAnswer(auth)) return auth;
    if (opts.stateless) return errorAnswer(405, "a stateless server has no session to delete", { ...cors, allow: "POST" });
    const refused = checkVersion(ctx, input, cors);
    if (refused) return refused;
    const session = await findSession(ctx, input, cors, auth.principal);
    if (isAnswer(session)) return session;
    const { shared } = ctx;
    if (shared !== undefined && session.id !== undefined) {
      try {
        await shared.sessions.delete(session.id);
        await shared.bus.publish(`s:${session.id}`, JSON.stringify({ t: "close" }));
      } catch (cause) {
        return sharedUnavailable(shared, ctx.fault, cause, cors);
      }
    }
    await session.close(new HttpServerError(HttpFaultCode.SessionClosed, "the client ended the session (DELETE)"));
    return { status: 204, headers: cors };
  }

  function route(input: HttpIn): Promise<HttpAnswer> | HttpAnswer {
    if (metadataPaths.has(input.path) && metadataBody !== undefined) return serveMetadata(input);
    if (opts.path !== undefined && input.path !== opts.path) return errorAnswer(404, `not found; the MCP endpoint is ${opts.path}`);
    const origin = input.header("origin");
    if (opts.hostCheck !== false) {
      const refused = guard(input.header("host"), origin, input.localAddress, opts.hostCheck);
      if (refused !== undefined) return errorAnswer(403, `forbidden: ${refused}`);
    }
    const cors = corsHeaders(opts.cors, origin);
    if (closed) return errorAnswer(503, "the server is shutting down", cors);
    if ((input.method === "GET" || input.method === "DELETE") && hasModernHeader(input)) {
      return errorAnswer(405, "under MCP 2026-07-28 the endpoint takes POST only (no sessions, no GET stream)", { ...cors, allow: "POST" });
    }
    switch (input.method) {
      case "POST":
        return handlePost(ctx, input, cors);
      case "GET":
        return handleGet(ctx, input, cors);
      case "DELETE":
        return handleDelete(input, cors);
      case "OPTIONS": {
        const preflight = opts.cors ? preflightHeaders(opts.cors, origin) : undefined;
        if (preflight) return { status: 204, headers: preflight };
        return errorAnswer(opts.cors ? 403 : 405, opts.cors ? "origin not allowed" : "CORS is not enabled on this endpoint", { allow: "GET, POST, DELETE" });
      }
      default:
        return errorAnswer(405, `method ${input.method} is not allowed`, { ...cors, allow: "GET, POST, DELETE" });
    }
  }

  function failed(error: unknown): HttpAnswer {
    opts.logger?.error("the Streamable HTTP handler failed on a request", error);
    return errorAnswer(500, "internal error");
  }

  function serve(input: HttpIn): HttpAnswer | Promise<HttpAnswer> {
    try {
      const answer = route(input);
      return answer instanceof Promise ? answer.catch(failed) : answer;
    } catch (error) {
      return failed(error);
    }
  }

  return {
    handle: (input) => Promise.resolve(serve(input)),
    serve,
    async close() {
      if (closed) return;
      closed = true;
      stopTakeover?.();
      await registry.closeAll(new HttpServerError(HttpFaultCode.SessionClosed, "the handler was closed"));
    },
    get sessionCount() {
      return registry.size;
    },
    sweep: () => registry.sweep(),
    bound(address) {
      const warning = wildcardBindWarning(address, opts.hostCheck);
      if (warning !== undefined && !warned) opts.logger?.warn(warning);
      warned ||= warning !== undefined;
    },
  };
}
