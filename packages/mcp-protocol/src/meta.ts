/**
 * `_meta` key rules (MCP 2025-11-25, basic/index, "General fields: `_meta`").
 *
 * A key is `[prefix/]name`. The prefix is dot-separated labels (a letter first, a letter or
 * digit last, letters, digits and hyphens inside) ending with `/`. A prefix whose second
 * label is `modelcontextprotocol` or `mcp` is reserved for MCP (`io.modelcontextprotocol/`,
 * `dev.mcp/`); `com.example.mcp/` is not. The name, unless empty, starts and ends with an
 * alphanumeric and has alphanumerics, `-`, `_` and `.` inside.
 */

/** The `_meta` keys MCP defines, across 2025-11-25 and the stateless revision 2026-07-28. */
export const MetaKey = {
  /** The progress token a request offers for `notifications/progress`. */
  ProgressToken: "progressToken",
  /** The protocol version a request is made under (per-request negotiation; -32022 when unsupported). */
  ProtocolVersion: "io.modelcontextprotocol/protocolVersion",
  /** The client's capabilities for this one request (2026-07-28). */
  ClientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  /** The client software making the request (2026-07-28). */
  ClientInfo: "io.modelcontextprotocol/clientInfo",
  /** The log level wanted for this one request (2026-07-28). */
  LogLevel: "io.modelcontextprotocol/logLevel",
  /** The server software producing a result (2026-07-28). */
  ServerInfo: "io.modelcontextprotocol/serverInfo",
  /** The subscription stream a notification was delivered on (2026-07-28). */
  SubscriptionId: "io.modelcontextprotocol/subscriptionId",
  /** The task a message relates to (tasks, 2025-11-25). */
  RelatedTask: "io.modelcontextprotocol/related-task",
} as const;

/** One of the `_meta` keys MCP defines. */
export type MetaKey = (typeof MetaKey)[keyof typeof MetaKey];

const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const NAME = "(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?";
// Linear: labels and the name are separated by fixed characters, no nested quantifier can overlap.
const KEY = new RegExp(`^(?:((?:${LABEL}\\.)*${LABEL})/)?(${NAME})$`);

/** A parsed `_meta` key: its prefix (without the slash) when it has one, and its name. */
export interface MetaKeyParts {
  readonly prefix?: string;
  readonly name: string;
}

/** Splits a `_meta` key into prefix and name, or returns `undefined` when the key breaks the rules. */
export function parseMetaKey(key: string): MetaKeyParts | undefined {
  if (key.length > 1024) return undefined;
  const match = KEY.exec(key);
  if (match === null) return undefined;
  const name = match[2] ?? "";
  return match[1] === undefined ? { name } : { prefix: match[1], name };
}

/** True when `key` follows the `_meta` key syntax. */
export function isValidMetaKey(key: string): boolean {
  return parseMetaKey(key) !== undefined;
}

/** True when `key` has a prefix reserved for MCP (its second label is `modelcontextprotocol` or `mcp`). */
export function isReservedMetaKey(key: string): boolean {
  const prefix = parseMetaKey(key)?.prefix;
  if (prefix === undefined) return false;
  const second = prefix.split(".")[1];
  return second === "modelcontextprotocol" || second === "mcp";
}
