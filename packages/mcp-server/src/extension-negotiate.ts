/**
 * Extension negotiation (DESIGN.md section 2, "Extensions"), one function for both eras:
 * a 2025-11-25 session negotiates once at `initialize` from its `capabilities.extensions`;
 * a 2026-07-28 request negotiates on its own from
 * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` (that revision has no
 * session). The outcome is a function of (what the client declared, each extension's
 * `settings()`), so lists decorated for it can be shared by every session and request that
 * negotiated the same set.
 */
import type { Logger } from "@proto/jsonrpc";
import type { JsonObject } from "@proto/mcp-protocol";
import type { ServerExtension } from "./extension";
import type { ServerSession } from "./session-types";

/** The extensions negotiated for one session (2025-11-25) or one request (2026-07-28). */
export interface NegotiatedExtensions {
  /** The client's settings of each negotiated extension, by id. */
  readonly clients: ReadonlyMap<string, JsonObject>;
  /** The server's settings of each negotiated extension, by id (what `initialize` advertises); undefined when none. */
  readonly server: { readonly [id: string]: JsonObject } | undefined;
  /** Identifies the set (ids and client settings): equal keys decorate lists alike. `""` when none. */
  readonly key: string;
}

/** Nothing negotiated. */
export const NO_EXTENSIONS: NegotiatedExtensions = Object.freeze({ clients: new Map<string, JsonObject>(), server: undefined, key: "" });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Negotiates each extension in `extensions` that the client declared in `declared` (its
 * `capabilities.extensions`): an extension is negotiated when the client's entry is an object
 * and `settings()` (default `{}`) returns the server's settings; a throw there is logged and
 * leaves that extension out.
 */
export function negotiateExtensions(
  extensions: readonly ServerExtension[],
  declared: unknown,
  session: ServerSession,
  logger: Logger,
): NegotiatedExtensions {
  if (extensions.length === 0 || !isRecord(declared)) return NO_EXTENSIONS;
  let clients: Map<string, JsonObject> | undefined;
  let server: { [id: string]: JsonObject } | undefined;
  let key = "";
  for (const extension of extensions) {
    const client = declared[extension.id];
    if (!isRecord(client)) continue;
    let settings: JsonObject | undefined;
    let entry: string;
    try {
      entry = `${JSON.stringify(extension.id)}:${JSON.stringify(client)};`;
      settings = extension.settings === undefined ? {} : extension.settings(client as JsonObject, session);
    } catch (error) {
      logger.error(`Extension "${extension.id}" threw while negotiating; it is not enabled for this client`, error);
      continue;
    }
    if (settings === undefined) continue;
    (clients ??= new Map()).set(extension.id, client as JsonObject);
    (server ??= {})[extension.id] = settings;
    key += entry;
  }
  return clients === undefined ? NO_EXTENSIONS : { clients, server, key };
}
