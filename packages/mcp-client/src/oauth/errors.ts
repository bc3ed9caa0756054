/**
 * OAuth faults with stable string codes (listed in packages/mcp-client/OAUTH.md). Every
 * refusal of the OAuth provider is one of these: switch on `code`, never on the message.
 */
import { brandError } from "@proto/jsonrpc";

/** Stable codes of the OAuth provider's errors. */
export const OAuthFaultCode = {
  /** An authorization server, metadata or endpoint URL is not https (loopback http is allowed). */
  InsecureEndpoint: "INSECURE_ENDPOINT",
  /** The Protected Resource Metadata names another resource than the server we talk to (RFC 9728 §3.3). */
  ResourceMismatch: "RESOURCE_MISMATCH",
  /** The metadata `issuer` (RFC 8414 §3.3) or the callback `iss` (RFC 9207) is not the expected issuer. */
  IssuerMismatch: "ISSUER_MISMATCH",
  /** The authorization server does not advertise PKCE with S256; MCP forbids proceeding. */
  PkceUnsupported: "PKCE_UNSUPPORTED",
  /** A metadata document, registration or token response is not what the RFC requires. */
  InvalidMetadata: "INVALID_METADATA",
  /** No Protected Resource Metadata and no authorization server could be found, or a fetch failed. */
  DiscoveryFailed: "DISCOVERY_FAILED",
  /** No client identity: no pre-registered client, no Client ID Metadata Document support, no registration endpoint. */
  NoClientIdentity: "NO_CLIENT_IDENTITY",
  /** Dynamic client registration (RFC 7591) was refused. */
  RegistrationFailed: "REGISTRATION_FAILED",
  /** The authorization response's `state` is missing or differs from the one sent. */
  StateMismatch: "STATE_MISMATCH",
  /** The authorization server answered the authorization request with an error (for example `access_denied`). */
  AuthorizationDenied: "AUTHORIZATION_DENIED",
  /** The authorization response carries no code or did not come back to our redirect URI. */
  InvalidCallback: "INVALID_CALLBACK",
  /** The token endpoint refused a request (`detail` holds the OAuth `error` and `error_description`). */
  TokenRequestFailed: "TOKEN_REQUEST_FAILED",
  /** The token endpoint answered with something that is not a usable Bearer token response. */
  InvalidTokenResponse: "INVALID_TOKEN_RESPONSE",
  /** The authorization server does not support the grant type this provider needs. */
  GrantUnsupported: "GRANT_UNSUPPORTED",
  /** No token endpoint authentication method is usable with the client's credentials. */
  AuthMethodUnsupported: "AUTH_METHOD_UNSUPPORTED",
  /** Too many authorizations in a row were answered with another challenge (step-up loop). */
  AttemptsExceeded: "ATTEMPTS_EXCEEDED",
  /** The server wants a user authorization but no redirect handler is configured: call `authorize()`. */
  AuthorizationRequired: "AUTHORIZATION_REQUIRED",
  /** The private key for `private_key_jwt` could not be imported or used. */
  InvalidKey: "INVALID_KEY",
  /** The token store could not be read or written. */
  StoreFailed: "STORE_FAILED",
  /** The user did not complete the authorization in time. */
  Timeout: "TIMEOUT",
  /** The caller's signal aborted the operation. */
  Aborted: "ABORTED",
} as const;

/** One of the OAuth provider's stable error codes. */
export type OAuthFaultCode = (typeof OAuthFaultCode)[keyof typeof OAuthFaultCode];

/** @deprecated Renamed `OAuthFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const OAuthErrorCode = OAuthFaultCode;
/** @deprecated Renamed `OAuthFaultCode`. */
export type OAuthErrorCode = OAuthFaultCode;

/** An error raised by the OAuth provider (never sent on the wire). Switch on `code`. */
export class OAuthError extends Error {
  override readonly name: string = "OAuthError";
  /** A stable string code from `OAuthFaultCode`. */
  readonly code: OAuthFaultCode;
  /** Structured detail (an HTTP status, the OAuth `error`), when there is any. */
  readonly detail: unknown;

  /** Creates an OAuth fault; `message` says what happened and what to do. */
  constructor(code: OAuthFaultCode, message: string, options?: { cause?: unknown; detail?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
  }
}

brandError(OAuthError, "@proto/mcp-client:OAuthError");

/** True when `error` is an `OAuthError` (also one made by another copy of this package: its CJS or ESM build), optionally with the given code. */
export function isOAuthError(error: unknown, code?: OAuthFaultCode): error is OAuthError {
  return error instanceof OAuthError && (code === undefined || error.code === code);
}

/** Turns an abort reason into an `ABORTED` error unless it already is an `OAuthError`. */
export function abortError(signal: AbortSignal): OAuthError {
  const reason: unknown = signal.reason;
  if (reason instanceof OAuthError) return reason;
  return new OAuthError(OAuthFaultCode.Aborted, "The OAuth operation was aborted by its caller.", { cause: reason });
}

/**
 * Settles with `promise`, or rejects with `abortError(signal)` as soon as `signal` aborts; the
 * operation behind `promise` goes on (its outcome stays handled), only this caller stops waiting.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError(signal));
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
