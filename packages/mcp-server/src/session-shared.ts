/**
 * A 2025-11-25 session shared by several server instances (a load-balanced Streamable HTTP
 * deployment): the server layer saves what it negotiated and what the client set (version,
 * client capabilities and info, each feature's per-session state: log level, resource
 * subscriptions) through `ConnectOptions.shared`, and another instance that receives a request
 * of that session rebuilds it from the saved snapshot. The server definition must be the same
 * on every instance; the snapshot holds only what the client negotiated or set.
 */
import type { ClientCapabilities, Implementation, JsonValue, ServerCapabilities } from "@proto/mcp-protocol";
import { isSupportedProtocolVersion } from "@proto/mcp-protocol";
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { ServerCore } from "./core";
import { negotiateExtensions } from "./extension-negotiate";
import type { SessionState } from "./session-state";
import type { ServerSession } from "./session-types";

/** What one instance saves of a session so another can serve it. Plain JSON. */
export interface SessionSnapshot {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** Each feature's per-session state by feature name (`logging`: the level; `resources`: the subscribed URIs). */
  readonly features: { readonly [name: string]: JsonValue };
}

/**
 * Where a session's snapshot lives (`ConnectOptions.shared`); the Streamable HTTP handler's
 * `ConnectContext.shared` is one (pass it through). The server validates `snapshot` before use:
 * it comes from a store other processes write.
 */
export interface SessionPersistence {
  /** The snapshot another instance saved, to rebuild the session from; undefined for a new session. */
  readonly snapshot: unknown;
  /**
   * Saves the session's snapshot; called after a request changed it, before that request is
   * answered (so the client's next request, on any instance, sees it). A rejection fails the request.
   */
  save(snapshot: SessionSnapshot): void | Promise<void>;
  /** Registers a listener for snapshots saved by other instances (the session applies them). */
  onChange?(listener: (snapshot: unknown) => void): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The snapshot when `value` is a well-formed one, else undefined. */
export function parseSnapshot(value: unknown): SessionSnapshot | undefined {
  if (!isRecord(value) || !isSupportedProtocolVersion(value.protocolVersion)) return undefined;
  if (!isRecord(value.clientCapabilities) || !isRecord(value.features)) return undefined;
  if (value.clientInfo !== undefined && !(isRecord(value.clientInfo) && typeof value.clientInfo.name === "string")) return undefined;
  return value as unknown as SessionSnapshot;
}

/** The snapshot of an initialized session (undefined before `initialize`). */
export function takeSnapshot(core: ServerCore, state: SessionState): SessionSnapshot | undefined {
  if (!state.initialized || state.assumed || state.protocolVersion === undefined) return undefined;
  const features: Record<string, JsonValue> = {};
  for (const feature of core.features) {
    if (feature.snapshot === undefined || !state.features.has(feature)) continue;
    const value = feature.snapshot(state.features.get(feature));
    if (value !== undefined) features[feature.name] = value;
  }
  const base = { protocolVersion: state.protocolVersion, clientCapabilities: state.clientCapabilities, features };
  return state.clientInfo === undefined ? base : { ...base, clientInfo: state.clientInfo };
}

/** Applies a snapshot to a session: it becomes initialized with what the snapshot says. */
export function applySnapshot(core: ServerCore, state: SessionState, view: ServerSession, snapshot: SessionSnapshot): void {
  const first = !state.initialized;
  state.protocolVersion = snapshot.protocolVersion;
  state.clientCapabilities = snapshot.clientCapabilities;
  state.clientInfo = snapshot.clientInfo;
  if (first) {
    state.negotiated = negotiateExtensions(core.extensions, snapshot.clientCapabilities.extensions, view, core.logger);
    const base = core.capabilities();
    const extensions = state.negotiated.server;
    const capabilities: ServerCapabilities = extensions === undefined ? base : { ...base, extensions: { ...base.extensions, ...extensions } };
    state.serverCapabilities = capabilities;
    state.initialized = true;
  }
  for (const feature of core.features) {
    if (feature.restore === undefined || !state.features.has(feature)) continue;
    try {
      feature.restore(state.features.get(feature), snapshot.features[feature.name], view);
    } catch (error) {
      core.logger.warn(`the ${feature.name} state of a shared session snapshot was refused`, error);
    }
  }
}

/**
 * Wires a session to its persistence: restores it from `persistence.snapshot`, applies the
 * snapshots other instances save, and returns the function to call after each request (it saves
 * the snapshot when the request changed it, compared as JSON).
 */
export function shareSession(core: ServerCore, state: SessionState, view: ServerSession, persistence: SessionPersistence): () => Promise<void> {
  let last: string | undefined;
  const apply = (value: unknown): void => {
    const snapshot = parseSnapshot(value);
    if (snapshot === undefined) {
      if (value !== undefined) core.logger.warn("a shared session snapshot was malformed and is ignored");
      return;
    }
    applySnapshot(core, state, view, snapshot);
    last = JSON.stringify(takeSnapshot(core, state));
  };
  apply(persistence.snapshot);
  persistence.onChange?.(apply);
  return async () => {
    const snapshot = takeSnapshot(core, state);
    if (snapshot === undefined) return;
    const text = JSON.stringify(snapshot);
    if (text === last) return;
    try {
      await persistence.save(snapshot);
      last = text;
    } catch (cause) {
      core.logger.warn("saving the shared session snapshot failed", cause);
      throw new JsonRpcError(JsonRpcErrorCode.InternalError, "the session state could not be saved to the shared store; retry the request");
    }
  };
}
