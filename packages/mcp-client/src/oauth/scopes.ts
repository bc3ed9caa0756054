/**
 * Scope selection (MCP 2025-11-25 "Scope Selection Strategy" and "Step-Up Authorization
 * Flow"): the challenge's `scope` first; else the owner's configured scope; else every scope of
 * the Protected Resource Metadata's `scopes_supported`; else no `scope` parameter at all.
 * `offline_access` is added only when the authorization server lists it (SEP-2207).
 */
import { splitScope } from "./challenge";

/** Inputs of scope selection. */
export interface ScopeInputs {
  /** The scopes of the `WWW-Authenticate` challenge. */
  readonly challenge?: readonly string[];
  /** The scope the owner configured (space-separated). */
  readonly configured?: string;
  /** `scopes_supported` of the Protected Resource Metadata. */
  readonly resourceScopes?: readonly string[];
  /** `scopes_supported` of the authorization server metadata. */
  readonly serverScopes?: readonly string[];
  /** Ask for `offline_access` (a refresh token) when the authorization server lists it. */
  readonly offlineAccess: boolean;
}

/** The `scope` parameter to send, or undefined to omit it. */
export function selectScope(inputs: ScopeInputs): string | undefined {
  let scopes: string[];
  if (inputs.challenge !== undefined && inputs.challenge.length > 0) scopes = [...inputs.challenge];
  else if (inputs.configured !== undefined && inputs.configured.trim() !== "") scopes = splitScope(inputs.configured);
  else if (inputs.resourceScopes !== undefined && inputs.resourceScopes.length > 0) scopes = [...inputs.resourceScopes];
  else return undefined;
  return withOfflineAccess(scopes, inputs).join(" ");
}

/**
 * `scopes` plus `offline_access` when it is wanted and the authorization server lists it: every
 * authorization asks for it again, a step-up too, or the new grant comes without a refresh token.
 */
export function withOfflineAccess(scopes: readonly string[], inputs: Pick<ScopeInputs, "offlineAccess" | "serverScopes">): string[] {
  const wanted = inputs.offlineAccess && inputs.serverScopes?.includes("offline_access") === true && !scopes.includes("offline_access");
  return wanted ? [...scopes, "offline_access"] : [...scopes];
}

/** The union of two scope sets, in first-seen order (step-up keeps what was granted). */
export function unionScopes(current: string | undefined, added: readonly string[]): string {
  return [...new Set([...splitScope(current ?? ""), ...added])].join(" ");
}

/** True when every scope of `needed` is in `held`. */
export function coversScopes(held: string | undefined, needed: readonly string[]): boolean {
  const have = new Set(splitScope(held ?? ""));
  return needed.every((scope) => have.has(scope));
}
