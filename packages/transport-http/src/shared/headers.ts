/**
 * HTTP header names and media types of the Streamable HTTP transport (MCP 2025-11-25,
 * basic/transports), lower-cased as `Headers` reports them. Shared by client and server.
 */

/** Header names the transport reads and writes. */
export const HttpHeader = {
  /** The session id the server issues on `initialize` and the client echoes on every later request. */
  SessionId: "mcp-session-id",
  /** The negotiated protocol version, sent by the client on every request after `initialize`. */
  ProtocolVersion: "mcp-protocol-version",
  /** The id of the last SSE event the client saw, sent on a GET that resumes a stream. */
  LastEventId: "last-event-id",
} as const;

/** Media types of the transport. */
export const MediaType = {
  Json: "application/json",
  EventStream: "text/event-stream",
} as const;

/** The methods the HTTP transports must recognise (the lifecycle, MCP 2025-11-25 basic/lifecycle). */
export const LifecycleMethod = {
  Initialize: "initialize",
  Initialized: "notifications/initialized",
} as const;
