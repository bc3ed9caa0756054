/**
 * Exposed names of a child's tools and prompts: `<child><separator><name>`, made with the
 * tool-name map of `@proto/mcp-client` (`createToolNameMap`, the one implementation of
 * sanitising, truncating and hashing names): valid for the hosts that reject dots and cap
 * names at 64 of `[A-Za-z0-9_-]` (style `"provider"`), or for the spec's
 * `[A-Za-z0-9_.-]{1,128}` (style `"spec"`). A name that is too long, or that collides with
 * another after invalid characters became `_`, becomes `<child><sep><truncated>_<hash8>`,
 * where the hash is of the child and the original name: the result depends on the set of
 * names, never their order, and routing uses the table built here (never a split of the
 * exposed name).
 */
import { createToolNameMap } from "@proto/mcp-client";
import type { ToolNameStyle } from "@proto/mcp-client";

/** The character rules of exposed names (the client's tool-name styles). */
export type NameStyle = ToolNameStyle;

/** Child names: 1-32 of `a-z0-9-`, starting and ending with a letter or digit (no `_`, `.`, `+`, `/`: never inside a separator or a URI delimiter). */
export const CHILD_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

/** True when `name` can name a child. */
export function isGatewayChildName(name: unknown): name is string {
  return typeof name === "string" && CHILD_NAME.test(name);
}

/**
 * Maps each original name of one child to its exposed name. Duplicates in `names` count once
 * (drop them first: first wins). The map is injective and independent of order.
 */
export function exposeNames(child: string, names: readonly string[], separator: string, style: NameStyle): Map<string, string> {
  const map = createToolNameMap(names.map((name) => ({ server: child, name })), { separator, style });
  return new Map(map.entries.map((e) => [e.name, e.provider]));
}
