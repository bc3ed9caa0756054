/**
 * The client side of the lifecycle's initialization phase (MCP 2025-11-25, basic/lifecycle):
 * `initialize`, the version check, then `notifications/initialized` (the era probe that may
 * come first is `probe.ts`). An unsupported-version error
 * (-32022, the drafts' -32004, or any error carrying `data.supported`) is retried once with
 * the best version both sides speak.
 */
import { JsonRpcError } from "@proto/jsonrpc";
import {
  NotificationMethod,
  RequestMethod,
  SUPPORTED_PROTOCOL_VERSIONS,
  isSupportedProtocolVersion,
  unsupportedVersionData,
  type ClientCapabilities,
  type Implementation,
  type InitializeResult,
} from "@proto/mcp-protocol";
import { ClientFaultCode, McpClientError } from "./errors";

/** Sends one handshake request (already bound to the peer and the connect signal). */
export type HandshakeCall = (method: string, params: { readonly [key: string]: unknown }, timeoutMs?: number) => Promise<unknown>;

/** What the handshake needs. */
export interface HandshakeOptions {
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  /** The version to ask for first. */
  readonly protocolVersion: string;
  readonly warn: (message: string, detail?: unknown) => void;
}

/** The newest version we speak that is in `theirs`, or `undefined` when there is none. */
export function pickCommonVersion(theirs: readonly unknown[]): string | undefined {
  return SUPPORTED_PROTOCOL_VERSIONS.find((version) => theirs.includes(version));
}

function noCommonVersion(theirs: readonly unknown[], cause?: unknown): McpClientError {
  return new McpClientError(
    ClientFaultCode.UnsupportedVersion,
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

/** Runs the handshake; `notify` sends `notifications/initialized`. Throws `UNSUPPORTED_VERSION` when no version fits. */
export async function handshake(call: HandshakeCall, notify: (method: string) => Promise<void>, options: HandshakeOptions): Promise<InitializeResult> {
  const initialize = await withVersionRetry(options.protocolVersion, (protocolVersion) =>
    call(RequestMethod.Initialize, { protocolVersion, capabilities: options.capabilities, clientInfo: options.clientInfo }) as Promise<InitializeResult>,
  );
  if (!isSupportedProtocolVersion(initialize.protocolVersion)) {
    throw new McpClientError(
      ClientFaultCode.UnsupportedVersion,
      `The server chose protocol version "${initialize.protocolVersion}", which this client does not speak ` +
        `(${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}); the connection was closed. Upgrade the client or the server`,
      { detail: { requested: options.protocolVersion, chosen: initialize.protocolVersion } },
    );
  }
  await notify(NotificationMethod.Initialized);
  return initialize;
}
