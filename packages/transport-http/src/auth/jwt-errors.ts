/** Why a JWT was refused: stable codes, and the mapping from `jose` errors to them. */

/** Stable codes of refused tokens (listed in the package README). */
export const JwtFaultCode = {
  /** Not a well-formed JWS compact JWT, or its header/claims are not valid JSON. */
  Malformed: "JWT_MALFORMED",
  /** The signature does not verify with the key the header names. */
  BadSignature: "JWT_BAD_SIGNATURE",
  /** No key of the JWKS matches the token's `kid`/`alg`. */
  UnknownKey: "JWT_UNKNOWN_KEY",
  /** The token's `alg` is not in the accepted list (symmetric and `none` are refused by default). */
  AlgorithmNotAllowed: "JWT_ALG_NOT_ALLOWED",
  /** `exp` is in the past (beyond the leeway). */
  Expired: "JWT_EXPIRED",
  /** `nbf` or `iat` is in the future (beyond the leeway). */
  NotYetValid: "JWT_NOT_YET_VALID",
  /** `iss` is not an accepted issuer. */
  WrongIssuer: "JWT_WRONG_ISSUER",
  /** None of our audiences is present in `aud`. */
  WrongAudience: "JWT_WRONG_AUDIENCE",
  /** A required claim (`exp` by default, and `sub` or `client_id`) is missing. */
  MissingClaim: "JWT_MISSING_CLAIM",
} as const;

/** One of the stable JWT refusal codes. */
export type JwtFaultCode = (typeof JwtFaultCode)[keyof typeof JwtFaultCode];

/** @deprecated Renamed `JwtFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const JwtFailure = JwtFaultCode;
/** @deprecated Renamed `JwtFaultCode`. */
export type JwtFailure = JwtFaultCode;

function claimFailure(claim: unknown, reason: unknown): JwtFaultCode {
  if (reason === "missing") return JwtFaultCode.MissingClaim;
  if (claim === "iss") return JwtFaultCode.WrongIssuer;
  if (claim === "aud") return JwtFaultCode.WrongAudience;
  if (claim === "nbf" || claim === "iat") return JwtFaultCode.NotYetValid;
  return JwtFaultCode.Malformed;
}

/**
 * Maps a `jose` verification error to a refusal, or undefined when the error is not about the
 * token (the JWKS could not be fetched: the caller answers 503, not 401).
 */
export function classifyJoseError(error: unknown): { code: JwtFaultCode; message: string } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, claim, reason, message } = error as { code?: unknown; claim?: unknown; reason?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : "token refused";
  switch (code) {
    case "ERR_JWT_EXPIRED":
      return { code: JwtFaultCode.Expired, message: text };
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      return { code: claimFailure(claim, reason), message: text };
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return { code: JwtFaultCode.BadSignature, message: text };
    case "ERR_JWKS_NO_MATCHING_KEY":
      return { code: JwtFaultCode.UnknownKey, message: text };
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return { code: JwtFaultCode.AlgorithmNotAllowed, message: text };
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
    case "ERR_JOSE_NOT_SUPPORTED":
      return { code: JwtFaultCode.Malformed, message: text };
    default:
      return undefined;
  }
}
