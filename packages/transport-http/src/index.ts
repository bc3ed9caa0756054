// --- server (Streamable HTTP handler, auth) ---
export { createStreamableHttpHandler } from "./server/web";
export type { StreamableHttpHandler } from "./server/web";
export type { StreamableHttpServerOptions, ConnectContext, SharedSessionState } from "./server/options";
export type { SessionStore, SessionRecord, SessionLimits, SessionCreateResult, MessageBus, SharedSessionOptions } from "./server/shared-store";
export { createMemorySessionStore, createMemoryMessageBus } from "./server/memory-shared";
export type { ResponseMode } from "./server/exchange";
export type { HttpRequestLike } from "./server/io";
export type { HostCheckOptions } from "./server/guards";
export { isLoopbackAddress } from "./server/guards";
export type { CorsOptions } from "./server/cors";
export { createMemoryEventStore } from "./server/event-store";
export type { EventStore, EventReplay, EventListener, StoredEvent, MemoryEventStore, MemoryEventStoreOptions, MaybePromise } from "./server/event-store";
export { HttpServerError, HttpFaultCode, HttpServerFault, isHttpServerError } from "./server/errors";
export type { HttpRefusalCode, HttpServerFaultCode } from "./server/errors";
export { createJwtVerifier, bearerToken, DEFAULT_JWT_ALGORITHMS, JwtFaultCode, JwtFailure } from "./auth/jwt";
export type { JwtVerifier, JwtVerifierOptions, JwtVerifyResult } from "./auth/jwt";
export { protectedResourceMetadata, protectedResourceMetadataUrl } from "./auth/metadata";
export type { ProtectedResourceOptions } from "./auth/metadata";
export { bearerChallenge } from "./auth/challenge";
export type { BearerChallenge } from "./auth/challenge";
// --- end server ---
// --- client (Streamable HTTP, legacy HTTP+SSE fallback, auth) ---
export { createStreamableHttpClientTransport } from "./client/streamable-http-client";
export type { StreamableHttpClientTransport } from "./client/streamable-http-client";
export { createHttpClientTransport } from "./client/http-client-transport";
export type { HttpClientTransport, HttpClientOptions, HttpTransportKind } from "./client/http-client-transport";
export { createSseClientTransport } from "./legacy/sse-client-transport";
export type { SseClientTransport, SseClientOptions } from "./legacy/sse-client-transport";
export type {
  StreamableHttpClientOptions,
  ReconnectOptions,
  HttpClientEvent,
  HttpClientEventListener,
  FetchLike,
  HeadersOption,
} from "./client/options";
export { staticToken, cachedToken } from "./client/http-auth";
export type { HttpAuth, HttpAuthChallenge, CachedTokenOptions } from "./client/http-auth";
export { HttpClientError, HttpClientFaultCode, HttpClientErrorCode, isHttpClientError } from "./client/http-error";
export type { HttpClientErrorDetails } from "./client/http-error";
export { LOST_RESPONSE_CODE } from "./client/client-core";
// --- end client ---
