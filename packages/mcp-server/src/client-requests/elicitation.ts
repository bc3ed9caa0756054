/**
 * `elicitation/create` (MCP 2025-11-25, client/elicitation) in both modes. Form mode asks the
 * user to fill a flat form and checks the answer against it; URL mode sends the user to a URL
 * out of band, remembers which session the elicitation belongs to, and later tells that
 * session `notifications/elicitation/complete`. A handler can also refuse a request until the
 * user has visited URLs: it throws the -32042 error built by `urlElicitationRequired`.
 */
import type { JsonRpcError, JsonRpcParams, Logger } from "@proto/jsonrpc";
import { NotificationMethod, RequestMethod, compareVersions, createUrlElicitationRequiredError } from "@proto/mcp-protocol";
import type { ElicitRequestURLParams } from "@proto/mcp-protocol";
import { ProtocolError } from "../protocol-error";
import type { ServerSession } from "../session-types";
import { missingCapability, supportsFormElicitation, supportsUrlElicitation } from "./capabilities";
import { readElicitationSchema, validateElicited } from "./elicitation-schema";
import type { ElicitationResult, ElicitationSchemaLike, FormElicitation, UrlElicitation, UrlElicitationResult } from "./elicitation-types";
import { MalformedResultError } from "./types";
import type { ClientRequestOptions, ClientTarget } from "./types";

const METHOD = RequestMethod.ElicitationCreate;
const ACTIONS = new Set(["accept", "decline", "cancel"]);

function action(result: unknown): "accept" | "decline" | "cancel" {
  const value = (result as { action?: unknown } | null)?.action;
  if (typeof value !== "string" || !ACTIONS.has(value)) {
    throw new MalformedResultError(METHOD, `action ${JSON.stringify(value)} is not accept, decline or cancel`);
  }
  return value as "accept" | "decline" | "cancel";
}

/** Asks the user to fill a form. Rejects with -32021 when the client lacks form-mode elicitation, `MalformedResultError` for content outside the schema. */
export async function elicitForm<const S extends ElicitationSchemaLike>(
  target: ClientTarget,
  params: FormElicitation<S>,
  options: ClientRequestOptions = {},
): Promise<ElicitationResult<S>> {
  if (typeof params?.message !== "string") throw new TypeError("elicit(): pass { message, requestedSchema }");
  const form = readElicitationSchema(params.requestedSchema);
  if (!supportsFormElicitation(target.clientCapabilities)) throw missingCapability(target, { elicitation: { form: {} } }, "elicit()");
  // `mode` arrived with 2025-11-25; older clients get the params they know.
  const modes = target.protocolVersion === undefined || compareVersions(target.protocolVersion, "2025-11-25") >= 0;
  const wire = modes
    ? { mode: "form", message: params.message, requestedSchema: form.schema }
    : { message: params.message, requestedSchema: form.schema };
  const result = await target.request(METHOD, wire as unknown as JsonRpcParams, options);
  const chosen = action(result);
  if (chosen !== "accept") return { action: chosen };
  const content = (result as { content?: unknown }).content ?? {};
  const checked = await validateElicited(form, content);
  if ("problem" in checked) throw new MalformedResultError(METHOD, checked.problem);
  return { action: "accept", content: checked.value } as ElicitationResult<S>;
}

/** Remembers which session each URL-mode elicitation belongs to, until it completes or the session closes. */
export interface PendingElicitations {
  register(session: ServerSession, elicitationId: string): void;
  /** Sends `notifications/elicitation/complete` to the owning session; false when the id is unknown (completed already, or its session closed). */
  complete(elicitationId: string): boolean;
  /** Forgets a closed session's elicitations. */
  forget(session: ServerSession): void;
}

/** Most URL elicitations one session may have pending; the oldest is forgotten beyond it. */
export const MAX_PENDING_ELICITATIONS = 256;

/** Creates the registry of pending URL-mode elicitations. */
export function createPendingElicitations(logger: Logger): PendingElicitations {
  const owners = new Map<string, ServerSession>();
  const bySession = new WeakMap<ServerSession, Set<string>>();
  return {
    register(session, id) {
      const ids = bySession.get(session) ?? new Set<string>();
      bySession.set(session, ids);
      ids.delete(id);
      ids.add(id);
      owners.set(id, session);
      if (ids.size > MAX_PENDING_ELICITATIONS) {
        const oldest = ids.values().next().value as string;
        ids.delete(oldest);
        owners.delete(oldest);
      }
    },
    complete(id) {
      const session = owners.get(id);
      if (session === undefined) return false;
      owners.delete(id);
      bySession.get(session)?.delete(id);
      session.notify(NotificationMethod.ElicitationComplete, { elicitationId: id }).catch((error: unknown) => {
        logger.warn(`notifications/elicitation/complete for ${id} could not be sent`, error);
      });
      return true;
    },
    forget(session) {
      for (const id of bySession.get(session) ?? []) owners.delete(id);
      bySession.delete(session);
    },
  };
}

function urlParams(params: UrlElicitation, where: string): ElicitRequestURLParams {
  if (typeof params?.message !== "string") throw new TypeError(`${where}: pass { message, url }`);
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw new TypeError(`${where}: url ${JSON.stringify(params.url)} is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`${where}: url must be https: (or http: for local development)`);
  const elicitationId = params.elicitationId ?? crypto.randomUUID();
  if (typeof elicitationId !== "string" || elicitationId === "") throw new TypeError(`${where}: elicitationId must be a non-empty string`);
  return { mode: "url", message: params.message, url: params.url, elicitationId };
}

/** Sends the user to a URL. Rejects with -32021 when the client lacks URL-mode elicitation. */
export async function elicitUrl(
  target: ClientTarget,
  session: ServerSession,
  pending: PendingElicitations,
  params: UrlElicitation,
  options: ClientRequestOptions = {},
): Promise<UrlElicitationResult> {
  const wire = urlParams(params, "elicitUrl()");
  if (!supportsUrlElicitation(target.clientCapabilities)) throw missingCapability(target, { elicitation: { url: {} } }, "elicitUrl()");
  pending.register(session, wire.elicitationId);
  const result = await target.request(METHOD, wire as unknown as JsonRpcParams, options);
  return { action: action(result), elicitationId: wire.elicitationId };
}

/**
 * Builds the -32042 error (a `ProtocolError`) that tells the client the user must visit these
 * URLs before the request can succeed; throw it from a handler. When the client did not declare
 * URL-mode elicitation (the spec forbids -32042 then), returns the -32021 missing-capability
 * error instead (see `missingCapability`: under 2025-11-25 a tool that throws it fails with an
 * `isError` result).
 */
export function urlElicitationRequired(
  target: ClientTarget,
  session: ServerSession,
  pending: PendingElicitations,
  elicitations: UrlElicitation | readonly UrlElicitation[],
  message?: string,
): JsonRpcError {
  const list = (Array.isArray(elicitations) ? elicitations : [elicitations]) as readonly UrlElicitation[];
  const wire = list.map((e) => urlParams(e, "urlElicitationRequired()"));
  if (!supportsUrlElicitation(target.clientCapabilities)) {
    return missingCapability(target, { elicitation: { url: {} } }, "urlElicitationRequired()");
  }
  for (const e of wire) pending.register(session, e.elicitationId);
  return ProtocolError.of(createUrlElicitationRequiredError(wire, message));
}
