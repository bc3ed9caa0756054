/**
 * The client side of the lifecycle's initialization phase (MCP 2025-11-25, basic/lifecycle):
 * an optional `server/discover` probe that picks the best common version, `initialize`,
 * the version check, then `notifications/initialized`. An unsupported-version error
 * (-32022, the drafts' -32004, or any error carrying `data.supported`) is retried once with
 * the best version both sides speak.
 */
import { JsonRpcError, RequestError } from "@proto/jsonrpc";
import {
  MetaKey,
  NotificationMethod,
  RequestMethod,
  SUPPORTED_PROTOCOL_VERSIONS,
  isSupportedProtocolVersion,
  unsupportedVersionData,
  type ClientCapabilities,
  type DiscoverResult,
  type Implementation,
  type InitializeResult,
} from "@proto/mcp-protocol";
import { ClientErrorCode, McpClientError } from "./errors";

/** Sends one handshake request (already bound to the peer and the connect signal). */
export type HandshakeCall = (method: string, params: { readonly [key: string]: unknown }, timeoutMs?: number) => Promise<unknown>;

/** What the handshake needs. */
export interface HandshakeOptions {
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  /** The version to ask for first. */
  readonly protocolVersion: string;
  /** Probe with `server/discover` first; the number is the probe's timeout in milliseconds. */
  readonly probeTimeoutMs: number | undefined;
  readonly warn: (message: string, detail?: unknown) => void;
}

/** What the handshake learned. */
export interface HandshakeResult {
  readonly initialize: InitializeResult;
  /** The `server/discover` result, when the probe ran and the server knew the method. */
  readonly discover?: DiscoverResult;
}

/** The newest version we speak that is in `theirs`, or `undefined` when there is none. */
export function pickCommonVersion(theirs: readonly unknown[]): string | undefined {
  return SUPPORTED_PROTOCOL_VERSIONS.find((version) => theirs.includes(version));
}

function noCommonVersion(theirs: readonly unknown[], cause?: unknown): McpClientError {
  return new McpClientError(
    ClientErrorCode.UnsupportedVersion,
    `The server supports protocol versions [${theirs.map(String).join(", ")}], none of which this client speaks ` +
      `(${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); upgrade the client or the server`,
    { cause, detail: { supported: theirs } },
  );
}

/** Calls `method` with a version; on an unsupported-version error, retries once with the best common version. */
async function withVersionRetry<T>(version: string, attempt: (version: string) => Promise<T>): Promise<T> {
  try {
    return await attempt(version);
  } catch (error) {
    const data = unsupportedVersionData(error instanceof JsonRpcError ? error : undefined);
    if (data === undefined) throw error;
    const common = pickCommonVersion(data.supported);
    if (common === undefined || common === version) throw noCommonVersion(data.supported, error);
    return attempt(common);
  }
}

async function probe(call: HandshakeCall, options: HandshakeOptions): Promise<{ version: string; discover?: DiscoverResult }> {
  try {
    const discover = await withVersionRetry(options.protocolVersion, (version) =>
      call(RequestMethod.Discover, { _meta: { [MetaKey.ProtocolVersion]: version } }, options.probeTimeoutMs) as Promise<DiscoverResult>,
    );
    const version = pickCommonVersion(discover.supportedVersions);
    if (version === undefined) throw noCommonVersion(discover.supportedVersions);
    return { version, discover };
  } catch (error) {
    // A server without `server/discover` answers -32601 (or, before initialize, some other error);
    // one that ignores unknown requests times out. Either way, plain initialize decides.
    const fallback = error instanceof JsonRpcError || (error instanceof RequestError && error.code === "TIMEOUT");
    if (!fallback) throw error;
    options.warn(`server/discover failed (${error.message}); falling back to plain initialize`);
    return { version: options.protocolVersion };
  }
}

/** Runs the handshake; `notify` sends `notifications/initialized`. Throws `UNSUPPORTED_VERSION` when no version fits. */
export async function handshake(call: HandshakeCall, notify: (method: string) => Promise<void>, options: HandshakeOptions): Promise<HandshakeResult> {
  const probed = options.probeTimeoutMs === undefined ? { version: options.protocolVersion } : await probe(call, options);
  const initialize = await withVersionRetry(probed.version, (protocolVersion) =>
    call(RequestMethod.Initialize, { protocolVersion, capabilities: options.capabilities, clientInfo: options.clientInfo }) as Promise<InitializeResult>,
  );
  if (!isSupportedProtocolVersion(initialize.protocolVersion)) {
    throw new McpClientError(
      ClientErrorCode.UnsupportedVersion,
      `The server chose protocol version "${initialize.protocolVersion}", which this client does not speak ` +
        `(${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); the connection was closed. Upgrade the client or the server`,
      { detail: { requested: probed.version, chosen: initialize.protocolVersion } },
    );
  }
  await notify(NotificationMethod.Initialized);
  return probed.discover === undefined ? { initialize } : { initialize, discover: probed.discover };
}
