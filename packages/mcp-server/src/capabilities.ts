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
