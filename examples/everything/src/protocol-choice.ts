/**
 * The era the conformance runner asks for (`MCP_CONFORMANCE_PROTOCOL_VERSION`): 2026-07-28
 * runs use `auto` (the `server/discover` probe, then the stateless wire); 2025 runs keep to
 * `initialize`, so their traffic is what it always was.
 */
import type { ClientOptions } from "@proto/mcp-client";

/** The `protocol` option for a runner version. */
export function protocolFor(version: string | undefined): ClientOptions["protocol"] {
  return version !== undefined && version >= "2026-07-28" ? "auto" : "2025-11-25";
}
