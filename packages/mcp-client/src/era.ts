/**
 * The two protocol eras a client speaks (DESIGN.md §3): the `initialize` era (2025-11-25 and
 * older) and the stateless revision 2026-07-28, where every request carries its protocol
 * context in `_meta`. This module holds the era choice, the per-request envelope, and the
 * memory of which era a server speaks (2026-07-28 basic/versioning, CHECKLIST §5
 * "Client era probe": cache the verdict, re-probe when it fails).
 */
import { encodeOnce } from "@proto/jsonrpc";
import { LATEST_MODERN_PROTOCOL_VERSION, MODERN_PROTOCOL_VERSIONS, MetaKey, type ClientCapabilities, type Implementation, type LoggingLevel } from "@proto/mcp-protocol";

/** The stateless revision the client asks for first. */
export const MODERN_VERSION: string = LATEST_MODERN_PROTOCOL_VERSION;

/** The modern revisions this client speaks, newest first. */
export const MODERN_VERSIONS: readonly string[] = MODERN_PROTOCOL_VERSIONS;

/**
 * Which era to speak: `"auto"` probes with `server/discover` and falls back to `initialize`;
 * `"2026-07-28"` speaks only the stateless revision; `"2025-11-25"` only the `initialize` era.
 */
export type ProtocolChoice = "auto" | "2026-07-28" | "2025-11-25";

/** What a probe concluded about a server. */
export type EraVerdict = { readonly era: "modern"; readonly version: string } | { readonly era: "legacy"; readonly version?: string };

/**
 * Remembers verdicts by server key (`serverKey`, else the transport's: a command line or an
 * origin). Clients share one process-wide memory by default; pass one to keep them apart or
 * to persist what they learned.
 */
export interface EraMemory {
  get(key: string): EraVerdict | undefined;
  set(key: string, verdict: EraVerdict): void;
  delete(key: string): void;
}

/** Creates an in-memory verdict store (a bounded map; the oldest verdict goes first past 1,000 servers). */
export function createEraMemory(): EraMemory {
  const verdicts = new Map<string, EraVerdict>();
  return {
    get: (key) => verdicts.get(key),
    set(key, verdict) {
      verdicts.delete(key);
      verdicts.set(key, verdict);
      if (verdicts.size > 1_000) verdicts.delete(verdicts.keys().next().value as string);
    },
    delete: (key) => void verdicts.delete(key),
  };
}

/** True for a version of the stateless era this client speaks. */
export function isModernVersion(version: unknown): version is string {
  return typeof version === "string" && MODERN_VERSIONS.includes(version);
}

/** The capabilities of the modern wire: `roots` carries no `listChanged` (roots are asked per request). */
export function modernCapabilities(capabilities: ClientCapabilities): ClientCapabilities {
  if (capabilities.roots === undefined) return capabilities;
  return { ...capabilities, roots: {} };
}

/** The envelopes of one modern session, by method (the envelope of a method changes only with the log level). */
export interface EnvelopeCache {
  /** The frozen envelope of a `method` request at `logLevel`; built once, then shared by every such request. */
  get(method: string, logLevel: LoggingLevel | undefined): { readonly [key: string]: unknown };
}

/** Most methods whose envelopes one cache keeps (a client speaks a handful; extension methods are the user's). */
const MAX_CACHED_ENVELOPES = 64;

/**
 * Creates the envelope cache of one session: `capabilitiesFor(method)` says what the client
 * declares on that method's requests. A log level change drops every entry.
 */
export function createEnvelopeCache(version: string, info: Implementation, capabilitiesFor: (method: string) => ClientCapabilities): EnvelopeCache {
  const byMethod = new Map<string, { readonly [key: string]: unknown }>();
  let level: LoggingLevel | undefined;
  return {
    get(method, logLevel) {
      if (logLevel !== level) {
        byMethod.clear();
        level = logLevel;
      }
      let meta = byMethod.get(method);
      if (meta === undefined) {
        meta = Object.freeze(envelope(version, capabilitiesFor(method), info, logLevel));
        // A kept envelope is serialised once (`encodeOnce`): every request of the method reuses its JSON text.
        if (byMethod.size < MAX_CACHED_ENVELOPES) byMethod.set(method, encodeOnce(meta));
      }
      return meta;
    },
  };
}

/** The `_meta` envelope of one modern request (2026-07-28 basic/index "_meta"). */
export function envelope(version: string, capabilities: ClientCapabilities, info: Implementation, logLevel: LoggingLevel | undefined): { readonly [key: string]: unknown } {
  return {
    [MetaKey.ProtocolVersion]: version,
    [MetaKey.ClientCapabilities]: capabilities,
    [MetaKey.ClientInfo]: info,
    ...(logLevel === undefined ? {} : { [MetaKey.LogLevel]: logLevel }),
  };
}
