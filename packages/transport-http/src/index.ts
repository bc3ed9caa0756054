// --- server (Streamable HTTP handler, auth) ---
export { createStreamableHttpHandler } from "./server/web";
export type { StreamableHttpHandler } from "./server/web";
export type { StreamableHttpServerOptions } from "./server/options";
export type { ResponseMode } from "./server/exchange";
export type { HttpRequestLike } from "./server/io";
export type { HostCheckOptions } from "./server/guards";
export { isLoopbackAddress } from "./server/guards";
export type { CorsOptions } from "./server/cors";
export { createMemoryEventStore } from "./server/event-store";
export type { EventStore, EventReplay, StoredEvent, MemoryEventStoreOptions, MaybePromise } from "./server/event-store";
export { HttpServerError, HttpServerFault } from "./server/errors";
export { createJwtVerifier, bearerToken, DEFAULT_JWT_ALGORITHMS, JwtFailure } from "./auth/jwt";
export type { JwtVerifier, JwtVerifierOptions, JwtVerifyResult } from "./auth/jwt";
export { protectedResourceMetadata, protectedResourceMetadataUrl } from "./auth/metadata";
export type { ProtectedResourceOptions } from "./auth/metadata";
export { bearerChallenge } from "./auth/challenge";
export type { BearerChallenge } from "./auth/challenge";
// --- end server ---
