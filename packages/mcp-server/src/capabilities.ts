/** Merging the capabilities features contribute (one level deep: `tools`, `resources`, ...). */
import type { ServerCapabilities } from "@proto/mcp-protocol";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Merges capability objects; for each key, object members are merged, later values win. */
export function mergeCapabilities(list: readonly (ServerCapabilities | undefined)[]): ServerCapabilities {
  const out: Record<string, unknown> = {};
  for (const caps of list) {
    if (caps === undefined) continue;
    for (const [key, value] of Object.entries(caps)) {
      const previous = out[key];
      out[key] = isRecord(previous) && isRecord(value) ? { ...previous, ...value } : value;
    }
  }
  return out as ServerCapabilities;
}

function names(caps: ServerCapabilities | undefined, key: keyof ServerCapabilities): caps is ServerCapabilities {
  return caps !== undefined && Object.prototype.hasOwnProperty.call(caps, key);
}

/**
 * True when merging the features' capabilities and then `extra` (as `mergeCapabilities` does)
 * would have `key`: the last one that names it decides. Merges nothing: a modern request
 * checks this on every call.
 */
export function hasCapability(features: readonly { capabilities?(): ServerCapabilities | undefined }[], extra: ServerCapabilities | undefined, key: keyof ServerCapabilities): boolean {
  if (names(extra, key)) return extra[key] !== undefined;
  for (let i = features.length - 1; i >= 0; i--) {
    const caps = features[i]?.capabilities?.();
    if (names(caps, key)) return caps[key] !== undefined;
  }
  return false;
}
