/**
 * The fetch a provider with DPoP gives the HTTP client transport (RFC 9449 §7, §9): the
 * transport sends `Authorization: Bearer <token>` as usual; for a DPoP-bound token this fetch
 * rewrites it to `Authorization: DPoP <token>` with a fresh `DPoP` proof of the request's method
 * and URL (`ath` binds the token), keeps the nonce the server hands out, and answers a 401
 * `use_dpop_nonce` by sending the request once more with that nonce. Everything else passes through.
 */
import type { DpopProver } from "./dpop";
import { asksForNonce } from "./dpop";
import type { FetchLike } from "./http";
import type { StoredTokens } from "./token-store";

const BEARER = /^Bearer\s+(\S+)$/i;

/** Wraps `next` so that requests presenting the provider's DPoP token carry a proof. */
export function createDpopFetch(dpop: DpopProver, tokens: () => Promise<StoredTokens | undefined>, next: FetchLike): FetchLike {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const presented = BEARER.exec(headers.get("authorization") ?? "")?.[1];
    const held = presented === undefined ? undefined : await tokens();
    if (presented === undefined || held?.tokenType !== "DPoP" || held.accessToken !== presented) return next(input, init);
    const url = new URL(input instanceof URL ? input.href : input);
    const send = async (): Promise<Response> => {
      headers.set("authorization", `DPoP ${presented}`);
      headers.set("dpop", await dpop.proof({ method: init?.method ?? "GET", url, accessToken: presented }));
      const response = await next(input, { ...init, headers });
      dpop.remember(url, response);
      return response;
    };
    const response = await send();
    const resendable = init?.body === undefined || init.body === null || typeof init.body === "string";
    if (!resendable || response.status !== 401 || !response.headers.has("dpop-nonce") || !asksForNonce(response.headers.get("www-authenticate"))) return response;
    await response.body?.cancel().catch(() => undefined);
    return send();
  };
}
