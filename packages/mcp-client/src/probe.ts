/**
 * The client's era probe (2026-07-28 basic/versioning "Protocol Version Negotiation",
 * streamable-http "Backward Compatibility"; CHECKLIST §5 "Client era probe"): `server/discover`
 * at the preferred modern version, then
 * - a `DiscoverResult` naming a modern version we speak → modern; naming only older ones → `initialize`;
 * - a -32022 (or -32004, or any error with `data.supported`) → one retry at a mutual version,
 *   never a fall back to `initialize` while a modern version is mutual;
 * - any other JSON-RPC error, a timeout, an HTTP 400/404/405 without a modern error body, or a
 *   result that is not a `DiscoverResult` → `initialize` (legacy servers answer -32601, -32602,
 *   -32000, nothing, or, when lenient, anything);
 * - the connection closing under the probe → a server that exits on unknown requests: legacy,
 *   on a fresh connection.
 * Anything else (network down, 5xx, auth refused) fails the attempt without a verdict.
 */
import { JsonRpcError, RequestError } from "@proto/jsonrpc";
import { RequestMethod, SUPPORTED_PROTOCOL_VERSIONS, unsupportedVersionData, type ClientCapabilities, type DiscoverResult, type Implementation } from "@proto/mcp-protocol";
import type { HandshakeCall } from "./handshake";
import type { ProtocolChoice } from "./era";
import { MODERN_VERSION, MODERN_VERSIONS, envelope, modernCapabilities } from "./era";
import { ClientFaultCode, McpClientError } from "./errors";
import { pickCommonVersion } from "./handshake";
import { checkResult } from "./result-shapes";

/** What the probe needs. */
export interface ProbeSetup {
  readonly choice: Exclude<ProtocolChoice, "2025-11-25">;
  readonly clientInfo: Implementation;
  readonly capabilities: ClientCapabilities;
  /** Timeout of each `server/discover` in milliseconds. */
  readonly timeoutMs: number;
  readonly warn: (message: string, detail?: unknown) => void;
}

/** What the probe concluded. `closed`: the server hung up on the probe (retry on a new connection, legacy). */
export type ProbeOutcome =
  | { readonly era: "modern"; readonly version: string; readonly discover: DiscoverResult }
  | {
      readonly era: "legacy";
      readonly version: string | undefined;
      /** The versions the server named (its discover result, or the -32022 data). */
      readonly supported?: readonly string[];
      readonly closed?: boolean;
      /** The probe went unanswered within its timeout (a legacy server, or one still starting). */
      readonly timedOut?: boolean;
    };

/** The HTTP status a transport error carries (`HttpClientError.status` of @proto/transport-http), if any. */
function statusOf(error: unknown): number | undefined {
  const status = typeof error === "object" && error !== null ? (error as { status?: unknown }).status : undefined;
  return typeof status === "number" ? status : undefined;
}

function noCommonVersion(theirs: readonly unknown[], modernOnly: boolean, cause?: unknown): McpClientError {
  const ours = modernOnly ? MODERN_VERSIONS : [...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];
  return new McpClientError(
    ClientFaultCode.UnsupportedVersion,
    `The server supports protocol versions [${theirs.map(String).join(", ")}], none of which this client speaks here (${ours.join(", ")})` +
      (modernOnly ? '; the client was created with protocol: "2026-07-28": use "auto" to also speak older revisions' : "; upgrade the client or the server"),
    { cause, detail: { supported: theirs } },
  );
}

async function discoverAt(call: HandshakeCall, version: string, setup: ProbeSetup): Promise<DiscoverResult> {
  const params = { _meta: envelope(version, modernCapabilities(setup.capabilities), setup.clientInfo, undefined) };
  return checkResult(RequestMethod.Discover, await call(RequestMethod.Discover, params, setup.timeoutMs), true) as DiscoverResult;
}

function verdictOf(discover: DiscoverResult, setup: ProbeSetup): ProbeOutcome {
  const theirs: readonly unknown[] = discover.supportedVersions;
  const modern = MODERN_VERSIONS.find((version) => theirs.includes(version));
  if (modern !== undefined) return { era: "modern", version: modern, discover };
  const legacy = pickCommonVersion(theirs);
  if (legacy === undefined || setup.choice === MODERN_VERSION) throw noCommonVersion(theirs, setup.choice === MODERN_VERSION);
  return { era: "legacy", version: legacy, supported: discover.supportedVersions };
}

/** The legacy verdict an error means, or undefined when it means no verdict at all (rethrow it). */
function fallbackFor(error: unknown): ProbeOutcome | undefined {
  if (error instanceof JsonRpcError) return { era: "legacy", version: undefined };
  if (error instanceof RequestError) {
    if (error.code === "TIMEOUT") return { era: "legacy", version: undefined, timedOut: true };
    if (error.code === "CLOSED") return { era: "legacy", version: undefined, closed: true };
    return undefined;
  }
  const status = statusOf(error);
  return status === 400 || status === 404 || status === 405 ? { era: "legacy", version: undefined } : undefined;
}

/** Probes the server on the open connection `call` talks over. */
export async function probeEra(call: HandshakeCall, setup: ProbeSetup): Promise<ProbeOutcome> {
  try {
    return verdictOf(await discoverAt(call, MODERN_VERSION, setup), setup);
  } catch (error) {
    if (error instanceof McpClientError) {
      // Not a DiscoverResult (`{}`, null, a wrong shape): no modern server said so, a lenient legacy one may answer anything.
      if (error.code !== ClientFaultCode.InvalidResult || setup.choice === MODERN_VERSION) throw error;
      setup.warn(`server/discover answered with something else than a DiscoverResult (${error.message}); falling back to initialize`, error.detail);
      return { era: "legacy", version: undefined };
    }
    const data = unsupportedVersionData(error instanceof JsonRpcError ? error : undefined);
    if (data !== undefined) {
      const mutual = MODERN_VERSIONS.find((version) => data.supported.includes(version));
      // A modern server: retry once at the version it names, and never fall back to initialize.
      if (mutual !== undefined) return verdictOf(await discoverAt(call, mutual, setup), setup);
      const legacy = pickCommonVersion(data.supported);
      if (legacy === undefined || setup.choice === MODERN_VERSION) throw noCommonVersion(data.supported, setup.choice === MODERN_VERSION, error);
      return { era: "legacy", version: legacy, supported: data.supported.filter((v): v is string => typeof v === "string") };
    }
    const fallback = fallbackFor(error);
    if (fallback === undefined) throw error;
    if (setup.choice === MODERN_VERSION) {
      throw new McpClientError(ClientFaultCode.UnsupportedVersion,
        `The server does not speak protocol 2026-07-28 (server/discover failed: ${(error as Error).message}); create the client with protocol: "auto" to fall back to initialize`,
        { cause: error });
    }
    setup.warn(`server/discover failed (${(error as Error).message}); falling back to initialize`);
    return fallback;
  }
}
