/**
 * One connection to a server: a peer over one transport, after the era was chosen and, in
 * the `initialize` era, the handshake completed. The session owns its peer and, through it,
 * the transport. In the 2026-07-28 era there is no handshake: `server/discover` told what the
 * server offers, and every request carries the envelope (`modern`).
 */
import { createPeer, JsonRpcError, type Logger, type Peer, type Transport } from "@proto/jsonrpc";
import { watchSessionId } from "./session-watch";
import type { ClientCapabilities, DiscoverResult, Implementation, InitializeResult, ServerCapabilities } from "@proto/mcp-protocol";
import { MetaKey, mcpCancellation } from "@proto/mcp-protocol";
import type { EraMemory, EraVerdict, ProtocolChoice } from "./era";
import { modernCapabilities } from "./era";
import { ClientFaultCode, McpClientError } from "./errors";
import { handshake, type HandshakeCall, type HandshakeOptions } from "./handshake";
import { probeEra, type ProbeOutcome, type ProbeSetup } from "./probe";

/** What the client knows about the server it is connected to. */
export interface ServerDetails {
  /** The server's name, version and presentation (`serverInfo`). */
  readonly info: Implementation;
  /** The protocol version of this connection (`2026-07-28` on the stateless wire). */
  readonly protocolVersion: string;
  /** What the server declared it offers. */
  readonly capabilities: ServerCapabilities;
  /** How to use the server, for the model's system prompt. */
  readonly instructions?: string;
  /** The versions the server listed in `server/discover`, when the probe ran and it answered. */
  readonly supportedVersions?: readonly string[];
}

/** The protocol context of a 2026-07-28 session, stamped on every request. */
export interface ModernContext {
  readonly version: string;
  /** The capabilities as the modern wire declares them (roots without listChanged). */
  readonly capabilities: ClientCapabilities;
}

/** A connected session. */
export interface Session {
  readonly peer: Peer;
  readonly server: ServerDetails;
  /** Present on the 2026-07-28 wire. */
  readonly modern?: ModernContext;
  /** The transport's `credentialId`, when it has one (HTTP): keys `cacheScope: "private"` lists. */
  readonly credential?: () => Promise<string | undefined>;
}

/** How to open a session. */
export interface SessionSetup extends Omit<HandshakeOptions, "warn"> {
  readonly logger: Logger;
  readonly choice: ProtocolChoice;
  /** Verdicts of earlier probes, under `memoryKey`. */
  readonly memory: EraMemory;
  readonly memoryKey: string;
  /** Timeout of the `server/discover` probe in milliseconds. */
  readonly probeTimeoutMs: number;
  /** Registers handlers on the fresh peer before it starts. */
  readonly register: (peer: Peer) => void;
  /** Called for each notification the client sends. */
  readonly sent: (method: string) => void;
  /**
   * Called when the transport started a new session with the server on its own (a Streamable
   * HTTP re-initialization after the server lost the session): server-side state is gone.
   */
  readonly renewed: (peer: Peer) => void;
}

function legacyDetails(initialize: InitializeResult, supported: readonly string[] | undefined): ServerDetails {
  return {
    info: initialize.serverInfo,
    protocolVersion: initialize.protocolVersion,
    capabilities: initialize.capabilities,
    ...(typeof initialize.instructions === "string" ? { instructions: initialize.instructions } : {}),
    ...(supported === undefined ? {} : { supportedVersions: supported }),
  };
}

/** The server's identity from a discover result: `_meta` serverInfo (the spec), else a body `serverInfo` (early drafts). */
function serverInfoOf(discover: DiscoverResult): Implementation {
  const meta = (discover as { _meta?: { readonly [key: string]: unknown } })._meta?.[MetaKey.ServerInfo];
  const body = (discover as { serverInfo?: unknown }).serverInfo;
  for (const candidate of [meta, body]) {
    const info = candidate as Implementation | undefined;
    if (typeof info?.name === "string" && typeof info.version === "string") return info;
  }
  return { name: "unknown", version: "unknown" };
}

function modernDetails(version: string, discover: DiscoverResult): ServerDetails {
  return {
    info: serverInfoOf(discover),
    protocolVersion: version,
    capabilities: discover.capabilities,
    ...(typeof discover.instructions === "string" ? { instructions: discover.instructions } : {}),
    supportedVersions: discover.supportedVersions,
  };
}

async function decide(call: HandshakeCall, setup: SessionSetup): Promise<ProbeOutcome> {
  const cached = setup.memory.get(setup.memoryKey);
  if (setup.choice === "2025-11-25") return { era: "legacy", version: undefined };
  if (cached?.era === "legacy" && setup.choice === "auto") return { era: "legacy", version: cached.version };
  return probeEra(call, probeSetup(setup));
}

/** What the probe needs, from the session's setup (its choice is `auto` or `2026-07-28` here). */
function probeSetup(setup: SessionSetup): ProbeSetup {
  return { choice: setup.choice as ProbeSetup["choice"], clientInfo: setup.clientInfo, capabilities: setup.capabilities, timeoutMs: setup.probeTimeoutMs, warn: (m, d) => setup.logger.warn(m, d) };
}

async function establish(peer: Peer, setup: SessionSetup): Promise<Session> {
  const call: HandshakeCall = (method, params, timeoutMs) => peer.request(method, params, { timeoutMs: timeoutMs ?? 0 });
  const cached = setup.memory.get(setup.memoryKey);
  let outcome: ProbeOutcome;
  try {
    outcome = await decide(call, setup);
  } catch (error) {
    // A verdict that no longer holds is forgotten, so the next attempt probes afresh.
    if (cached !== undefined) setup.memory.delete(setup.memoryKey);
    throw error;
  }
  if (outcome.era === "modern") return modernSession(peer, setup, outcome);
  const verdict: EraVerdict = outcome.version === undefined ? { era: "legacy" } : { era: "legacy", version: outcome.version };
  if (outcome.closed === true) {
    setup.memory.set(setup.memoryKey, verdict);
    throw new McpClientError(ClientFaultCode.ConnectFailed,
      "The server closed the connection when probed with server/discover (a 2025-only server that exits on unknown requests); " +
      'the next attempt uses initialize. Give createClient a `transport` factory so it can reconnect, or pass protocol: "2025-11-25"');
  }
  try {
    const initialize = await handshake(call, async (method) => {
      await peer.notify(method);
      setup.sent(method);
    }, { ...setup, protocolVersion: outcome.version ?? setup.protocolVersion, warn: (message, detail) => setup.logger.warn(message, detail) });
    if (setup.choice === "auto") setup.memory.set(setup.memoryKey, verdict);
    return { peer, server: legacyDetails(initialize, outcome.supported) };
  } catch (error) {
    if (cached !== undefined) setup.memory.delete(setup.memoryKey);
    // A legacy verdict the server refused, when it was remembered or came from a probe that timed
    // out (a server still starting): it answered initialize with an error, so it is up and reads
    // requests. Probe it now, on this connection, instead of failing the attempt.
    const guessed = cached?.era === "legacy" || (outcome.era === "legacy" && outcome.timedOut === true);
    if (!guessed || setup.choice !== "auto" || !answered(error)) throw error;
    const again = await probeEra(call, probeSetup(setup));
    if (again.era !== "modern") throw error;
    return modernSession(peer, setup, again);
  }
}

/** An error the server answered with (to `initialize`): it is up and reads requests. */
function answered(error: unknown): boolean {
  return error instanceof JsonRpcError || (error instanceof McpClientError && error.code === ClientFaultCode.UnsupportedVersion);
}

/** The 2026-07-28 session a probe found, its verdict remembered. */
function modernSession(peer: Peer, setup: SessionSetup, outcome: Extract<ProbeOutcome, { era: "modern" }>): Session {
  setup.memory.set(setup.memoryKey, { era: "modern", version: outcome.version });
  return { peer, server: modernDetails(outcome.version, outcome.discover), modern: { version: outcome.version, capabilities: modernCapabilities(setup.capabilities) } };
}

/**
 * Starts a peer over `transport`, chooses the era and, in the `initialize` era, runs the
 * handshake. Aborting `signal` closes the peer (initialize itself is never cancelled, as the
 * lifecycle requires) and rejects with the signal's reason. On any failure the transport is closed.
 */
export async function openSession(transport: Transport, setup: SessionSetup, signal: AbortSignal): Promise<Session> {
  const peer: Peer = createPeer(watchSessionId(transport, () => setup.renewed(peer)), { requestTimeoutMs: 0, cancellation: mcpCancellation, logger: setup.logger });
  const onAbort = (): void => void peer.close(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    setup.register(peer);
    await peer.start();
    signal.throwIfAborted();
    const session = await establish(peer, setup);
    signal.throwIfAborted();
    return transport.credentialId === undefined ? session : { ...session, credential: () => transport.credentialId?.() ?? Promise.resolve(undefined) };
  } catch (error) {
    await peer.close(error instanceof Error ? error : undefined).catch(() => {});
    throw signal.aborted ? signal.reason : error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
