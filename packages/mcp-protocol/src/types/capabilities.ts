/**
 * Capabilities exchanged at `initialize` and reported by `server/discover`
 * (MCP 2025-11-25, basic/lifecycle "Capability Negotiation"; `extensions` as in 2026-07-28).
 */
import type { JsonObject } from "./base";

/** Capability objects whose content is open (an empty object means "supported"). */
export type OpenCapability = JsonObject;

/** What a client supports. */
export interface ClientCapabilities {
  /** Non-standard capabilities, by name. */
  readonly experimental?: { readonly [name: string]: OpenCapability };
  /** Extensions the client supports, by identifier (e.g. `io.modelcontextprotocol/ui`), with their settings. */
  readonly extensions?: { readonly [name: string]: OpenCapability };
  /** The client offers `roots/list`. */
  readonly roots?: { readonly listChanged?: boolean };
  /** The client offers `sampling/createMessage`. */
  readonly sampling?: { readonly context?: OpenCapability; readonly tools?: OpenCapability };
  /** The client offers `elicitation/create` (an empty object means form mode only). */
  readonly elicitation?: { readonly form?: OpenCapability; readonly url?: OpenCapability };
  /** Task-augmented requests the client accepts (2025-11-25, experimental). */
  readonly tasks?: {
    readonly list?: OpenCapability;
    readonly cancel?: OpenCapability;
    readonly requests?: {
      readonly sampling?: { readonly createMessage?: OpenCapability };
      readonly elicitation?: { readonly create?: OpenCapability };
    };
  };
}

/** What a server offers. */
export interface ServerCapabilities {
  /** Non-standard capabilities, by name. */
  readonly experimental?: { readonly [name: string]: OpenCapability };
  /** Extensions the server supports, by identifier; only those the client also declared. */
  readonly extensions?: { readonly [name: string]: OpenCapability };
  /** The server sends `notifications/message`. */
  readonly logging?: OpenCapability;
  /** The server answers `completion/complete`. */
  readonly completions?: OpenCapability;
  /** The server offers prompts. */
  readonly prompts?: { readonly listChanged?: boolean };
  /** The server offers resources. */
  readonly resources?: { readonly subscribe?: boolean; readonly listChanged?: boolean };
  /** The server offers tools. */
  readonly tools?: { readonly listChanged?: boolean };
  /** Task-augmented requests the server accepts (2025-11-25, experimental). */
  readonly tasks?: {
    readonly list?: OpenCapability;
    readonly cancel?: OpenCapability;
    readonly requests?: { readonly tools?: { readonly call?: OpenCapability } };
  };
}
