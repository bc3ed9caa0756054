/**
 * `@proto/mcp-client/oauth`: OAuth 2.1 for MCP clients (MCP 2025-11-25 authorization),
 * runtime-neutral (Fetch and WebCrypto only). The providers implement the HTTP client
 * transport's `HttpAuth` structurally. Node-only pieces (the loopback redirect listener, the
 * browser opener, the file token store) are in `@proto/mcp-client/oauth/node`.
 * Error codes and the flow are documented in packages/mcp-client/OAUTH.md.
 */
export { createOAuth, createClientCredentialsAuth } from "./oauth/provider";
export type { OAuthProvider, OAuthOptions, ClientCredentialsOptions, OAuthCommonOptions } from "./oauth/provider";
export type { UnauthorizedContext } from "./oauth/session";
export { createJwtBearerAuth, requestIdJag } from "./oauth/jwt-bearer";
export type { JwtBearerOptions, AssertionRequest, IdJagRequest } from "./oauth/jwt-bearer";
export { OAuthError, OAuthFaultCode, OAuthErrorCode, isOAuthError } from "./oauth/errors";
export { createHeadlessRedirect, followRedirects } from "./oauth/redirect";
export type { RedirectHandler, RedirectSession, AuthorizationPrompt, HeadlessRedirectOptions, FollowRedirectsOptions } from "./oauth/redirect";
export { createMemoryTokenStore } from "./oauth/token-store";
export type { TokenStore, StoredAuthorization, StoredTokens, StoredClient } from "./oauth/token-store";
export type { ClientMetadata, PreRegisteredClient } from "./oauth/registration";
export type { ClientSigningKey, TokenEndpointAuthMethod } from "./oauth/client-auth";
export type { JwsAlgorithm, PrivateKeyInput } from "./oauth/jwt";
export type { TokenSet } from "./oauth/token-endpoint";
export type { FetchLike } from "./oauth/http";
export { parseWwwAuthenticate, parseBearerChallenge } from "./oauth/challenge";
export type { AuthChallenge, BearerChallenge } from "./oauth/challenge";
export type { ProtectedResourceMetadata, AuthorizationServerMetadata } from "./oauth/metadata";
