/**
 * Serving the server's requests: `ping`, `roots/list`, `sampling/createMessage`,
 * `elicitation/create`, and the client capabilities that follow from the handlers given
 * (MCP 2025-11-25, basic/lifecycle "Capability Negotiation", client/*).
 */
import { JsonRpcErrorCode, JsonRpcError, type JsonRpcParams, type Peer, type RequestContext } from "@proto/jsonrpc";
import {
  RequestMethod,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
  type JsonObject,
  type Meta,
  type Root,
} from "@proto/mcp-protocol";
import type { ElicitationHandler, RootsLister, SamplingHandler, ServerRequestContext } from "./handler-types";
import type { SchemaValidator } from "./schema-validation";
import { checkRequestedSchema, finishFormAnswer } from "./elicitation";
import { ClientFaultCode, McpClientError } from "./errors";
import type { ServedTasks } from "./task-serve";

/** The handlers and declarations that shape the client's capabilities. */
export interface ServerRequestHandlers {
  /** Present when the client offers roots; returns the current lister. */
  readonly roots?: () => RootsLister;
  readonly sampling?: SamplingHandler;
  readonly elicitation?: ElicitationHandler;
  readonly extensions?: { readonly [name: string]: JsonObject };
  readonly experimental?: { readonly [name: string]: JsonObject };
  /** Present when the client runs the server's task-augmented sampling and elicitation (2025-11-25). */
  readonly tasks?: ServedTasks;
}

/** The capabilities to declare at `initialize`: exactly what the handlers serve. */
export function clientCapabilities(handlers: ServerRequestHandlers): ClientCapabilities {
  const { roots, sampling, elicitation, extensions, experimental, tasks } = handlers;
  const served = tasks?.capabilities({ sampling: sampling !== undefined, elicitation: elicitation !== undefined });
  return {
    ...(served === undefined ? {} : { tasks: served }),
    ...(roots === undefined ? {} : { roots: { listChanged: true } }),
    ...(sampling === undefined ? {} : { sampling: { ...(sampling.context ? { context: {} } : {}), ...(sampling.tools ? { tools: {} } : {}) } }),
    ...(elicitation === undefined ? {} : { elicitation: { ...(elicitation.form ? { form: {} } : {}), ...(elicitation.url ? { url: {} } : {}) } }),
    ...(extensions === undefined ? {} : { extensions }),
    ...(experimental === undefined ? {} : { experimental }),
  };
}

function record(params: JsonRpcParams | undefined, method: string): { readonly [key: string]: unknown } {
  if (params === undefined) return {};
  if (Array.isArray(params)) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `"${method}" takes named params (an object)`);
  return params as { readonly [key: string]: unknown };
}

function contextOf(params: { readonly [key: string]: unknown }, ctx: RequestContext): ServerRequestContext {
  return { signal: ctx.signal, meta: params._meta as Meta | undefined };
}

/** Checks roots a host provides: each needs a `file://` URI (client/roots "Root"). */
export function checkRoots(roots: unknown): readonly Root[] {
  if (!Array.isArray(roots)) throw new TypeError("roots must be an array of { uri, name? }");
  for (const [i, root] of roots.entries()) {
    const uri = (root as { uri?: unknown } | null)?.uri;
    if (typeof uri !== "string" || !uri.startsWith("file://")) throw new TypeError(`roots[${i}].uri must be a file:// URI, got ${JSON.stringify(uri)}`);
  }
  return roots as readonly Root[];
}

function sample(handler: SamplingHandler) {
  return async (params: { readonly [key: string]: unknown }, context: ServerRequestContext) => {
    if (!Array.isArray(params.messages) || typeof params.maxTokens !== "number") {
      throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "sampling/createMessage needs `messages` (an array) and `maxTokens` (a number)");
    }
    if ((params.tools !== undefined || params.toolChoice !== undefined) && !handler.tools) {
      throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "This client did not declare sampling.tools; send sampling requests without `tools` and `toolChoice`");
    }
    return handler.createMessage(params as unknown as CreateMessageRequestParams, context);
  };
}

/** `modern`: a 2026-07-28 input request, whose URL mode carries no `elicitationId`. */
function elicit(handler: ElicitationHandler, validator: SchemaValidator, modern: boolean) {
  return async (params: { readonly [key: string]: unknown }, context: ServerRequestContext): Promise<ElicitResult> => {
    const mode = params.mode ?? "form";
    if (typeof params.message !== "string") throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "elicitation/create needs a string `message`");
    if (mode === "form" && handler.form !== undefined) {
      const form = params as unknown as ElicitRequestFormParams;
      checkRequestedSchema(form);
      return finishFormAnswer(form, await handler.form(form, context), handler.applyDefaults === true, validator);
    }
    if (mode === "url" && handler.url !== undefined) {
      if (typeof params.url !== "string" || (!modern && typeof params.elicitationId !== "string")) {
        throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, modern ? "URL-mode elicitation needs a string `url`" : "URL-mode elicitation needs a string `url` and `elicitationId`");
      }
      const { content: _never, ...answer } = await handler.url(params as unknown as ElicitRequestURLParams, context);
      return answer;
    }
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `This client does not support ${JSON.stringify(mode)}-mode elicitation (see its elicitation capability)`);
  };
}

/** Registers the handlers of server requests on a fresh peer. */
export function registerServerRequests(peer: Peer, handlers: ServerRequestHandlers, validator: SchemaValidator): void {
  peer.handle(RequestMethod.Ping, () => ({}));
  const roots = handlers.roots;
  if (roots !== undefined) {
    peer.handle(RequestMethod.RootsList, async (raw, ctx) => {
      const params = record(raw, RequestMethod.RootsList);
      return { roots: [...checkRoots(await roots()(contextOf(params, ctx)))] };
    });
  }
  const tasks = handlers.tasks;
  tasks?.register(peer);
  const serve = (method: string, handler: (params: { readonly [key: string]: unknown }, context: ServerRequestContext) => unknown): void => {
    peer.handle(method, (raw, ctx) => {
      const params = record(raw, method);
      if (tasks === undefined || params.task === undefined) return handler(params, contextOf(params, ctx));
      // 2025-11-25 task-augmented request: answered with the task; the handler runs as its work
      const { task, ...plain } = params;
      return tasks.start(peer, task, async (signal) => handler(plain, { signal, meta: plain._meta as Meta | undefined }));
    });
  };
  if (handlers.sampling !== undefined) serve(RequestMethod.SamplingCreateMessage, sample(handlers.sampling));
  const elicitation = handlers.elicitation;
  if (elicitation !== undefined && (elicitation.form !== undefined || elicitation.url !== undefined)) {
    serve(RequestMethod.ElicitationCreate, elicit(elicitation, validator, false));
  }
}

/** Answers one 2026-07-28 input request (`inputRequests[key]`) with the handler of its method. */
export type InputResponder = (method: string, params: { readonly [key: string]: unknown }, signal: AbortSignal) => Promise<unknown>;

/** The elicitation handler a request of `mode` needs, when the client lacks it (`"form"` or `"url"`); an unknown mode is `elicit`'s to refuse. */
function missingElicitation(elicitation: ElicitationHandler | undefined, mode: unknown): "form" | "url" | undefined {
  const wanted = mode ?? "form";
  if (wanted === "form" && elicitation?.form === undefined) return "form";
  if (wanted === "url" && elicitation?.url === undefined) return "url";
  return undefined;
}

/** What to give `createClient` so that it can answer `method` (`mode`: the elicitation mode it lacks). */
function unavailableHint(method: string, mode: "form" | "url" | undefined): string {
  if (method === RequestMethod.RootsList) return " (create the client with `roots`)";
  if (method === RequestMethod.SamplingCreateMessage) return " (create the client with a `sampling` handler)";
  if (method === RequestMethod.ElicitationCreate) return ` in ${mode ?? "form"} mode (create the client with an \`elicitation.${mode ?? "form"}\` handler)`;
  return "; the server is at fault (it may ask only for roots, sampling and elicitation)";
}

/**
 * The responder of the 2026-07-28 input requests (basic/patterns/mrtr): the same roots,
 * sampling and elicitation handlers that serve 2025 server requests. A method whose handler
 * the client was not given (for elicitation: no handler for the request's mode) rejects with
 * `INPUT_UNAVAILABLE`, before any handler runs.
 */
export function createInputResponder(handlers: () => ServerRequestHandlers, validator: SchemaValidator): InputResponder {
  return async (method, params, signal) => {
    const { roots, sampling, elicitation } = handlers();
    const context: ServerRequestContext = { signal, meta: params._meta as Meta | undefined };
    if (method === RequestMethod.RootsList && roots !== undefined) return { roots: [...checkRoots(await roots()(context))] };
    if (method === RequestMethod.SamplingCreateMessage && sampling !== undefined) return sample(sampling)(params, context);
    const lacking = method === RequestMethod.ElicitationCreate ? missingElicitation(elicitation, params.mode) : undefined;
    if (method === RequestMethod.ElicitationCreate && elicitation !== undefined && lacking === undefined) return elicit(elicitation, validator, true)(params, context);
    throw new McpClientError(ClientFaultCode.InputUnavailable, `The server asked for "${method}", which this client cannot answer${unavailableHint(method, lacking)}`,
      { detail: lacking === undefined ? { method } : { method, mode: lacking } });
  };
}
