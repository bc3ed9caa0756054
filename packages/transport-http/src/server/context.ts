/**
 * What the POST, GET and DELETE handlers share: resolved options, the session registry, stream
 * settings, and the lookups every request does (session by id and principal, protocol version).
 */
import type { Principal } from "@proto/jsonrpc";
import { compareVersions, ProtocolVersion } from "@proto/mcp-protocol";
import { HttpHeader } from "../shared/headers";
import { principalKey } from "./auth-step";
import { HttpServerError, HttpFaultCode } from "./errors";
import { errorAnswer } from "./http-util";
import { newSessionId, randomHex } from "./ids";
import type { FullAnswer, HttpIn, OutHeaders } from "./io";
import type { ResolvedOptions } from "./options";
import type { SessionRegistry } from "./registry";
import { createSession } from "./session";
import type { Session } from "./session";
import { createReplica, sharedUnavailable } from "./shared";
import type { Replica, SharedContext } from "./shared";
import type { SessionRecord } from "./shared-store";
import type { StreamSettings } from "./stream";

/** The version assumed when a request carries no `MCP-Protocol-Version` and nothing else says (spec). */
export const ASSUMED_PROTOCOL_VERSION: string = ProtocolVersion.V2025_03_26;

/** Shared state of one handler. */
export interface CoreContext {
  readonly opts: ResolvedOptions;
  readonly registry: SessionRegistry;
  readonly settings: StreamSettings;
  readonly metadataUrl: string | undefined;
  /** Set with the `shared` option. */
  readonly shared: SharedContext | undefined;
  fault(error: Error): void;
}

const MISSING_ID = "Mcp-Session-Id header is required: send initialize first, then echo the session id it returned";
const NOT_FOUND = "session not found: it expired or was deleted; send initialize to start a new one";

/** The session a non-`initialize` request names, or the 400 or 404 (with `shared`: 503) that answers it. */
export function findSession(ctx: CoreContext, input: HttpIn, headers: OutHeaders, principal: Principal | undefined): Session | FullAnswer | Promise<Session | FullAnswer> {
  const id = input.header(HttpHeader.SessionId);
  if (id === undefined || id === "") return errorAnswer(400, MISSING_ID, headers);
  if (ctx.shared !== undefined) return findShared(ctx, ctx.shared, id, headers, principal, input.remoteAddress);
  const session = ctx.registry.get(id);
  // another principal's valid id is answered exactly like an unknown one: nothing to probe
  if (!session || session.principalKey !== principalKey(principal)) {
    return errorAnswer(404, NOT_FOUND, headers, HttpFaultCode.SessionNotFound);
  }
  session.touch();
  return session;
}

/** The shared record decides (it expires, is deleted and binds the principal for every instance); the local replica is rebuilt when missing. */
export async function findShared(ctx: CoreContext, shared: SharedContext, id: string, headers: OutHeaders, principal: Principal | undefined, remoteAddress: string | undefined): Promise<Session | FullAnswer> {
  let record: SessionRecord | undefined;
  try {
    record = id.length > 256 ? undefined : await shared.sessions.get(id, ctx.opts.sessionIdleTtlMs);
  } catch (cause) {
    return sharedUnavailable(shared, ctx.fault, cause, headers);
  }
  const local = ctx.registry.get(id);
  if (!record || record.principalKey !== principalKey(principal)) {
    if (!record && local) void local.close(new HttpServerError(HttpFaultCode.SessionExpired, "the shared session record expired or was deleted"));
    return errorAnswer(404, NOT_FOUND, headers, HttpFaultCode.SessionNotFound);
  }
  if (local) {
    local.touch();
    return local;
  }
  const pending = shared.restoring.get(id);
  if (pending) return pending;
  const restoring = openSession(ctx, principal, false, headers, remoteAddress, false, record).finally(() => shared.restoring.delete(id));
  shared.restoring.set(id, restoring);
  return restoring;
}

/** The version a request speaks: its header, else what the session negotiated, else 2025-03-26. */
export function versionOf(input: HttpIn, session: Session | undefined): string {
  return input.header(HttpHeader.ProtocolVersion) ?? session?.protocolVersion ?? ASSUMED_PROTOCOL_VERSION;
}

/**
 * Whether a stream may start with a priming event (an id and empty data): only clients of
 * 2025-11-25 or later expect empty events. A session that negotiated 2025-11-25 qualifies even
 * when one request's header names an older version.
 */
export function acceptsPriming(version: string, session: Session | undefined): boolean {
  const latest = ProtocolVersion.V2025_11_25;
  return compareVersions(version, latest) >= 0 || (session?.protocolVersion !== undefined && compareVersions(session.protocolVersion, latest) >= 0);
}

/** Answers 400 and returns false when `MCP-Protocol-Version` names a version we do not serve. */
export function checkVersion(ctx: CoreContext, input: HttpIn, headers: OutHeaders): FullAnswer | undefined {
  const version = input.header(HttpHeader.ProtocolVersion);
  if (version === undefined || ctx.opts.protocolVersions.has(version)) return undefined;
  const supported = [...ctx.opts.protocolVersions].join(", ");
  return errorAnswer(400, `unsupported MCP-Protocol-Version ${JSON.stringify(version.slice(0, 64))}; supported: ${supported}`, headers);
}

/**
 * Refuses a request whose `MCP-Protocol-Version` differs from the version its session negotiated
 * (MCP 2025-11-25 transports, "Protocol Version Header": the client sends the negotiated version
 * on every request), so a session cannot be spoken to under another revision's rules (batches).
 */
export function checkSessionVersion(input: HttpIn, session: Session, headers: OutHeaders): FullAnswer | undefined {
  const version = input.header(HttpHeader.ProtocolVersion);
  const negotiated = session.protocolVersion;
  if (version === undefined || negotiated === undefined || version === negotiated) return undefined;
  return errorAnswer(400, `MCP-Protocol-Version ${JSON.stringify(version.slice(0, 64))} differs from the version this session negotiated (${negotiated}); send ${negotiated}`, headers);
}

/** True when `key` may open one more session (its expired ones are swept first). */
function roomFor(ctx: CoreContext, key: string): boolean {
  if (ctx.registry.countOf(key) < ctx.opts.maxSessionsPerPrincipal) return true;
  ctx.registry.sweep();
  return ctx.registry.countOf(key) < ctx.opts.maxSessionsPerPrincipal;
}

/** The 503 at `maxSessions`; `why` says why no session was evicted. */
function tooMany(ctx: CoreContext, headers: OutHeaders, why: string): FullAnswer {
  return errorAnswer(503, `too many live sessions (maxSessions ${ctx.opts.maxSessions}) and ${why}; retry later`, { ...headers, "retry-after": "30" });
}

/** Why nothing was evicted, for `tooMany`. */
const NO_EVICTION = "eviction is off (evictWhenFull: false)";
const ALL_BUSY = "each has a request in flight, so none was evicted";

function principalFull(ctx: CoreContext, headers: OutHeaders): FullAnswer {
  return errorAnswer(429, `this caller already holds ${ctx.opts.maxSessionsPerPrincipal} live sessions (maxSessionsPerPrincipal); DELETE unused ones or retry later`, { ...headers, "retry-after": "30" });
}

/**
 * With `shared`: the record of a new session, stored under the caps of every instance, or the
 * refusal. At `maxSessions` (with `evictWhenFull`) the store's `evictOne` removes the biggest
 * holder's least recently touched record, its replicas are told on the bus, and `create` runs again once.
 */
async function createRecord(ctx: CoreContext, shared: SharedContext, principal: Principal | undefined, key: string, holder: string, headers: OutHeaders): Promise<SessionRecord | FullAnswer> {
  const record: SessionRecord = { id: newSessionId(), principalKey: key, streamPrefix: randomHex(8), ...(holder === key ? {} : { holder }) };
  const { maxSessions, maxSessionsPerPrincipal, sessionIdleTtlMs, evictWhenFull } = ctx.opts;
  const limits = { maxSessions, maxSessionsPerPrincipal: principal ? maxSessionsPerPrincipal : undefined, ttlMs: sessionIdleTtlMs };
  const { sessions } = shared;
  try {
    let created = await sessions.create(record, limits);
    if (created === "full" && evictWhenFull && sessions.evictOne !== undefined) {
      const evicted = await sessions.evictOne();
      if (evicted === undefined) return tooMany(ctx, headers, "the shared store found none to evict");
      await shared.bus.publish(`s:${evicted}`, JSON.stringify({ t: "evict" }));
      created = await sessions.create(record, limits);
      if (created === "full") return tooMany(ctx, headers, "other instances took the room one eviction made");
    }
    if (created === "full") return tooMany(ctx, headers, evictWhenFull ? "the shared session store cannot evict (it has no evictOne)" : NO_EVICTION);
    if (created === "principal-full") return principalFull(ctx, headers);
  } catch (cause) {
    return sharedUnavailable(shared, ctx.fault, cause, headers);
  }
  return record;
}

/**
 * The fair-share group of an anonymous caller: its IPv4 address, or the /64 prefix of its IPv6
 * address (one host usually holds a whole /64). Unknown addresses share one group.
 */
export function anonymousHolder(address: string | undefined): string {
  if (address === undefined) return "anonymous";
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4) return `anonymous@${v4[1] as string}`;
  const [head = "", tail] = address.toLowerCase().split("::", 2);
  const groups = head === "" ? [] : head.split(":");
  if (tail !== undefined) while (groups.length < 4) groups.push("0");
  return `anonymous@${groups.slice(0, 4).join(":")}::/64`;
}

/**
 * Creates a session and connects it with the `connect` option. Stateful sessions get an id and are
 * registered; stateless ones (`stateless`, default the handler's option; always for a 2026-07-28
 * request) live for one POST. With `shared`, a new session's record is stored first, and `restore`
 * (a record another instance created) rebuilds this instance's replica of it. Answers 500/503 on failure.
 */
export async function openSession(
  ctx: CoreContext,
  principal: Principal | undefined,
  initialize: boolean,
  headers: OutHeaders,
  remoteAddress: string | undefined,
  stateless: boolean = ctx.opts.stateless,
  restore?: SessionRecord,
): Promise<Session | FullAnswer> {
  const { opts } = ctx;
  const key = principalKey(principal);
  if (!stateless && principal && restore === undefined && !roomFor(ctx, key)) return principalFull(ctx, headers);
  if (!stateless && !ctx.registry.makeRoom()) return tooMany(ctx, headers, opts.evictWhenFull ? ALL_BUSY : NO_EVICTION);
  const shared = stateless ? undefined : ctx.shared;
  const holder = principal ? key : anonymousHolder(remoteAddress);
  const record = shared === undefined ? undefined : (restore ?? (await createRecord(ctx, shared, principal, key, holder, headers)));
  if (isFullAnswer(record)) return record;
  const replica: Replica | undefined = shared && record ? createReplica(shared, record, ctx.fault) : undefined;
  const session = createSession({
    id: stateless ? undefined : (record?.id ?? newSessionId()),
    principalKey: key,
    holder,
    streamPrefix: record?.streamPrefix ?? randomHex(8),
    settings: stateless ? { ...ctx.settings, store: undefined } : ctx.settings,
    maxQueued: opts.maxQueuedMessages,
    now: opts.now,
    fault: ctx.fault,
    closed: (closed) => {
      replica?.detach();
      ctx.registry.remove(closed);
    },
    ...(replica ? { sharing: replica.sharing } : {}),
  });
  if (restore?.protocolVersion !== undefined) session.protocolVersion = restore.protocolVersion;
  try {
    if (replica) await replica.attach(session);
    const context = { sessionId: session.id, stateless, initialize, principal };
    await opts.connect(session.transport, replica ? { ...context, shared: replica.state } : context);
    if (!session.sink) throw new TypeError("connect(transport) returned without calling transport.start(sink)");
  } catch (cause) {
    void session.close();
    if (shared && replica) return sharedUnavailable(shared, ctx.fault, cause, headers);
    ctx.fault(new HttpServerError(HttpFaultCode.ConnectFailed, "the connect option failed to connect a new transport", { cause }));
    return errorAnswer(500, "the server could not start a session", headers);
  }
  if (session.id !== undefined) ctx.registry.add(session);
  return session;
}

function isFullAnswer(value: SessionRecord | FullAnswer | undefined): value is FullAnswer {
  return value !== undefined && "status" in value;
}
