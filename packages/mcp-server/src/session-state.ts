/** The mutable state of one session, and the read-only `ServerSession` view over it. */
import type { Peer } from "@proto/jsonrpc";
import type { ClientCapabilities, Implementation, ServerCapabilities } from "@proto/mcp-protocol";
import type { NegotiatedExtensions } from "./extension-negotiate";
import { NO_EXTENSIONS } from "./extension-negotiate";
import type { AnyFeature } from "./feature";
import type { ServerSession } from "./session-types";

/** Everything the server keeps about one session. */
export interface SessionState {
  /** `ConnectOptions.sessionId`, else the transport's session id seen on `initialize`, else a random UUID. */
  id: string;
  /** True when `id` was given to `connect` (then frames never change it). */
  readonly idFixed: boolean;
  initialized: boolean;
  /** True when connected as already initialized (stateless HTTP): versions then come per request. */
  readonly assumed: boolean;
  protocolVersion: string | undefined;
  clientInfo: Implementation | undefined;
  clientCapabilities: ClientCapabilities;
  serverCapabilities: ServerCapabilities | undefined;
  /** The extensions negotiated at `initialize` (2025-11-25); 2026-07-28 requests negotiate their own. */
  negotiated: NegotiatedExtensions;
  /** Each feature's state for this session. */
  readonly features: Map<AnyFeature, unknown>;
}

const EMPTY: ClientCapabilities = Object.freeze({});

/** Creates the state of a new session. */
export function createSessionState(
  assumed?: { protocolVersion?: string; clientCapabilities?: ClientCapabilities; clientInfo?: Implementation },
  sessionId?: string,
): SessionState {
  return {
    id: sessionId ?? crypto.randomUUID(),
    idFixed: sessionId !== undefined,
    initialized: assumed !== undefined,
    assumed: assumed !== undefined,
    protocolVersion: assumed?.protocolVersion,
    clientInfo: assumed?.clientInfo,
    clientCapabilities: assumed?.clientCapabilities ?? EMPTY,
    serverCapabilities: undefined,
    negotiated: NO_EXTENSIONS,
    features: new Map(),
  };
}

/** The public view of a session's state, talking to the client through `peer`. */
export function createSessionView(state: SessionState, peer: Peer): ServerSession {
  return {
    get id() {
      return state.id;
    },
    get initialized() {
      return state.initialized;
    },
    get protocolVersion() {
      return state.protocolVersion;
    },
    get clientInfo() {
      return state.clientInfo;
    },
    get clientCapabilities() {
      return state.clientCapabilities;
    },
    get serverCapabilities() {
      return state.serverCapabilities;
    },
    extension: (id) => state.negotiated.clients.get(id),
    notify: (method, params) => peer.notify(method, params),
    request: (method, params, options) => peer.request(method, params, options),
    ping: async (options) => {
      await peer.request("ping", undefined, options);
    },
    close: (reason) => peer.close(reason),
    closed: peer.closed,
  };
}
