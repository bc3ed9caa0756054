/**
 * `server/discover` under a stateless revision (MCP 2026-07-28 server/discover), in its
 * released shape: `supportedVersions` (the stateless revisions served: the same list -32022
 * reports), `capabilities` (every extension registered, without the session-era `tasks`),
 * `instructions`, `ttlMs`, `cacheScope`, `resultType`, and the server's identity in
 * `_meta["io.modelcontextprotocol/serverInfo"]`, never in the body.
 */
import { MetaKey, ResultType } from "@proto/mcp-protocol";
import type { DiscoverResult, ServerCapabilities } from "@proto/mcp-protocol";
import type { ServerCore } from "../core";

/** The modern discover result of `core`. */
export function modernDiscover(core: ServerCore): DiscoverResult {
  const { tasks: _sessionEraOnly, ...base } = core.capabilities();
  const ids = core.extensions.map((e) => e.id);
  const capabilities: ServerCapabilities =
    ids.length === 0 ? base : { ...base, extensions: { ...base.extensions, ...Object.fromEntries(ids.map((id) => [id, {}])) } };
  const hints = core.stateless.cacheHints("server/discover") ?? { ttlMs: 0, cacheScope: "private" };
  const result: DiscoverResult = {
    resultType: ResultType.Complete,
    supportedVersions: [...core.stateless.versions],
    capabilities,
    ...(core.instructions === undefined ? {} : { instructions: core.instructions }),
    ttlMs: hints.ttlMs,
    cacheScope: hints.cacheScope,
    _meta: { [MetaKey.ServerInfo]: core.info },
  };
  return result;
}
