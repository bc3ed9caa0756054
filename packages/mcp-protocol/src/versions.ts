/**
 * Protocol versions this toolkit speaks, and the negotiation rule of the lifecycle
 * (MCP 2025-11-25, basic/lifecycle, "Version Negotiation").
 */

/** Every protocol revision we know by name. */
export const ProtocolVersion = {
  /** The revision we speak first and best. */
  V2025_11_25: "2025-11-25",
  V2025_06_18: "2025-06-18",
  /** The only revision that allowed JSON-RPC batches. */
  V2025_03_26: "2025-03-26",
  V2024_11_05: "2024-11-05",
  /** The stateless revision: every request carries its protocol context in `_meta`. */
  V2026_07_28: "2026-07-28",
} as const;

/** One of the protocol revisions we know by name. */
export type ProtocolVersion = (typeof ProtocolVersion)[keyof typeof ProtocolVersion];

/** The revision we answer with when the peer asks for one we do not serve. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion.V2025_11_25;

/**
 * Every revision `initialize` negotiates (the session era), newest first. The stateless
 * revisions are apart, in `MODERN_PROTOCOL_VERSIONS`: `initialize` never offers them.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = Object.freeze([
  ProtocolVersion.V2025_11_25,
  ProtocolVersion.V2025_06_18,
  ProtocolVersion.V2025_03_26,
  ProtocolVersion.V2024_11_05,
]);

/** True when `version` is a revision `initialize` negotiates (a session-era revision). */
export function isSupportedProtocolVersion(version: unknown): version is ProtocolVersion {
  return typeof version === "string" && (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/**
 * The server side of version negotiation: the client's requested version when we serve it,
 * otherwise our latest (the client then decides whether to go on or disconnect).
 * Pass `supported` to restrict the set (it must be a subset, newest first).
 */
export function negotiateVersion(
  requested: unknown,
  supported: readonly ProtocolVersion[] = SUPPORTED_PROTOCOL_VERSIONS,
): ProtocolVersion {
  if (typeof requested === "string") {
    const found = supported.find((v) => v === requested);
    if (found !== undefined) return found;
  }
  const latest = supported[0];
  if (latest === undefined) throw new TypeError("negotiateVersion: `supported` is empty; pass at least one version");
  return latest;
}

/** True when JSON-RPC batches are allowed under `version` (only 2025-03-26 had them). */
export function allowsBatches(version: string | undefined): boolean {
  return version === ProtocolVersion.V2025_03_26;
}

/**
 * Compares two revisions (dates, so string order is time order): negative when `a` is older.
 * Use it for "at least this revision" checks, e.g. `compareVersions(v, "2025-06-18") >= 0`.
 */
export function compareVersions(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The stateless revisions we serve, newest first (2026-07-28 basic/versioning). A request made
 * under one of them carries `_meta["io.modelcontextprotocol/protocolVersion"]`; the lists a
 * server reports in `server/discover` and in -32022 `data.supported` are drawn from here.
 */
export const MODERN_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = Object.freeze([ProtocolVersion.V2026_07_28]);

/** The stateless revision a client asks for first. */
export const LATEST_MODERN_PROTOCOL_VERSION: ProtocolVersion = ProtocolVersion.V2026_07_28;

/**
 * True when `version` is a stateless revision we serve. Membership, never string order: a
 * claim of `"v999.0.0"` or `"2099-01-01"` is modern (it has the claim) but not served (-32022).
 */
export function isModernProtocolVersion(version: unknown): version is ProtocolVersion {
  return typeof version === "string" && (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}
