/**
 * `initialize` and `server/discover` (MCP 2025-11-25 basic/lifecycle; `server/discover`
 * from 2026-07-28): version negotiation, capabilities derived from what is registered, and
 * extension negotiation under `capabilities.extensions`.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { DiscoverResult, InitializeResult, ServerCapabilities } from "@proto/mcp-protocol";
import { negotiateVersion } from "@proto/mcp-protocol";
import type { ServerCore } from "./core";
import { negotiateExtensions } from "./extension-negotiate";
import type { SessionState } from "./session-state";
import type { ServerSession } from "./session-types";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`);
}

/** Answers `initialize`. */
export function initialize(core: ServerCore, state: SessionState, view: ServerSession, params: JsonRpcParams | undefined, inBatch: boolean): InitializeResult {
  if (inBatch) throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, "Invalid Request: initialize must not be part of a JSON-RPC batch");
  // A session connected as already initialized (stateless HTTP) still answers initialize: clients send it first.
  if (state.initialized && !state.assumed) throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, "Invalid Request: the session is already initialized; open a new session to initialize again");
  const p: Record<string, unknown> = params === undefined ? {} : isRecord(params) ? params : {};
  if (Array.isArray(params)) throw invalid("initialize takes named params { protocolVersion, capabilities, clientInfo }");
  if (p.protocolVersion !== undefined && typeof p.protocolVersion !== "string") throw invalid("protocolVersion must be a string");
  if (p.capabilities !== undefined && !isRecord(p.capabilities)) throw invalid("capabilities must be an object");
  if (p.clientInfo !== undefined && !(isRecord(p.clientInfo) && typeof p.clientInfo.name === "string")) {
    throw invalid("clientInfo must be an object with a string name (and a version)");
  }
  const version = negotiateVersion(p.protocolVersion, core.supportedVersions);
  const clientCapabilities = (p.capabilities ?? {}) as SessionState["clientCapabilities"];
  state.clientCapabilities = clientCapabilities;
  state.clientInfo = p.clientInfo as SessionState["clientInfo"];
  state.protocolVersion = version;
  const negotiated = negotiateExtensions(core.extensions, clientCapabilities.extensions, view, core.logger);
  state.negotiated = negotiated;
  const extensions = negotiated.server;
  const base = core.capabilities();
  const capabilities: ServerCapabilities = extensions === undefined ? base : { ...base, extensions: { ...base.extensions, ...extensions } };
  state.serverCapabilities = capabilities;
  state.initialized = true;
  for (const extension of core.extensions) {
    try {
      extension.initialized?.(view);
    } catch (error) {
      core.logger.error(`Extension "${extension.id}" threw in initialized()`, error);
    }
  }
  const result: InitializeResult = { protocolVersion: version, capabilities, serverInfo: core.info };
  return core.instructions === undefined ? result : { ...result, instructions: core.instructions };
}

/** Answers `server/discover`: everything a client needs before (or instead of) `initialize`. */
export function discover(core: ServerCore): DiscoverResult {
  const base = core.capabilities();
  const ids = core.extensions.map((e) => e.id);
  const capabilities: ServerCapabilities =
    ids.length === 0 ? base : { ...base, extensions: { ...base.extensions, ...Object.fromEntries(ids.map((id) => [id, {}])) } };
  const result: DiscoverResult = {
    supportedVersions: [...core.supportedVersions],
    capabilities,
    serverInfo: core.info,
    resultType: "complete",
    cacheScope: "public",
    ttlMs: 0,
  };
  return core.instructions === undefined ? result : { ...result, instructions: core.instructions };
}
