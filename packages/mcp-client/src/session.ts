/**
 * One connection to a server: a peer over one transport, after a completed handshake.
 * The session owns its peer and, through it, the transport.
 */
import { createPeer, type Logger, type Peer, type Transport } from "@proto/jsonrpc";
import type { DiscoverResult, Implementation, ServerCapabilities } from "@proto/mcp-protocol";
import { handshake, type HandshakeOptions } from "./handshake";
import { mcpCancellation } from "@proto/mcp-protocol";

/** What the client knows about the server it is connected to. */
export interface ServerDetails {
  /** The server's name, version and presentation (`serverInfo`). */
  readonly info: Implementation;
  /** The protocol version of this connection. */
  readonly protocolVersion: string;
  /** What the server declared it offers. */
  readonly capabilities: ServerCapabilities;
  /** How to use the server, for the model's system prompt. */
  readonly instructions?: string;
  /** The versions the server listed in `server/discover`, when the probe ran and it answered. */
  readonly supportedVersions?: readonly string[];
}

/** A connected session. */
export interface Session {
  readonly peer: Peer;
  readonly server: ServerDetails;
}

/** How to open a session. */
export interface SessionSetup extends Omit<HandshakeOptions, "warn"> {
  readonly logger: Logger;
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

/**
 * Watches the session id the transport reports with each inbound frame (`ExchangeInfo.sessionId`):
 * once it changes, the server is holding a new session for us, and `renewed` runs before the frame
 * is delivered (so a re-sent request's answer finds the restored state and empty caches).
 */
function watchSessionId(transport: Transport, renewed: () => void): Transport {
  let current: string | undefined;
  return {
    start: (sink) => transport.start({
      payload(payload, exchange) {
        const id = exchange.info.sessionId;
        if (id !== undefined && id !== current) {
          const changed = current !== undefined;
          current = id;
          if (changed) renewed();
        }
        sink.payload(payload, exchange);
      },
      error: (error) => sink.error(error),
      closed: (reason) => sink.closed(reason),
    }),
    send: (payload) => transport.send(payload),
    close: (reason) => transport.close(reason),
  };
}

function details(result: Awaited<ReturnType<typeof handshake>>): ServerDetails {
  const { initialize, discover } = result;
  const base: ServerDetails = {
    info: initialize.serverInfo,
    protocolVersion: initialize.protocolVersion,
    capabilities: initialize.capabilities,
  };
  return {
    ...base,
    ...(typeof initialize.instructions === "string" ? { instructions: initialize.instructions } : {}),
    ...(discover === undefined ? {} : { supportedVersions: (discover as DiscoverResult).supportedVersions }),
  };
}

/**
 * Starts a peer over `transport` and runs the handshake. Aborting `signal` closes the peer
 * (initialize itself is never cancelled, as the lifecycle requires) and rejects with the
 * signal's reason. On any failure the transport is closed.
 */
export async function openSession(transport: Transport, setup: SessionSetup, signal: AbortSignal): Promise<Session> {
  const peer: Peer = createPeer(watchSessionId(transport, () => setup.renewed(peer)), { requestTimeoutMs: 0, cancellation: mcpCancellation, logger: setup.logger });
  const onAbort = (): void => void peer.close(signal.reason instanceof Error ? signal.reason : undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    setup.register(peer);
    await peer.start();
    signal.throwIfAborted();
    const result = await handshake(
      (method, params, timeoutMs) => peer.request(method, params, { timeoutMs: timeoutMs ?? 0 }),
      async (method) => {
        await peer.notify(method);
        setup.sent(method);
      },
      { ...setup, warn: (message, detail) => setup.logger.warn(message, detail) },
    );
    signal.throwIfAborted();
    return { peer, server: details(result) };
  } catch (error) {
    await peer.close(error instanceof Error ? error : undefined).catch(() => {});
    throw signal.aborted ? signal.reason : error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
