/**
 * What a host registers to serve the server's requests: roots, sampling and elicitation
 * (MCP 2025-11-25, client/roots, client/sampling, client/elicitation). The client declares
 * exactly the capabilities whose handlers it was given.
 */
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitResult,
  Meta,
  Root,
} from "@proto/mcp-protocol";

/** What a handler of a server request receives besides its params. */
export interface ServerRequestContext {
  /** Aborted when the server cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The request's `_meta`, as the server sent it (progress token, related task). */
  readonly meta: Meta | undefined;
}

/** Lists the client's roots; may be called any number of times. */
export type RootsLister = (context: ServerRequestContext) => readonly Root[] | Promise<readonly Root[]>;

/** Serves `sampling/createMessage`. */
export interface SamplingHandler {
  /**
   * Samples the model. Ask the user first (human in the loop): the spec expects hosts to let
   * users review both the request and the result. Throw a `JsonRpcError` to refuse.
   */
  createMessage(params: CreateMessageRequestParams, context: ServerRequestContext): CreateMessageResult | Promise<CreateMessageResult>;
  /** Declare `sampling.tools`: servers may then pass `tools` and `toolChoice`. Default false. */
  readonly tools?: boolean;
  /** Declare `sampling.context`: servers may then ask for `includeContext` other than `"none"`. Default false. */
  readonly context?: boolean;
}

/** Serves `elicitation/create` in form mode, URL mode, or both. */
export interface ElicitationHandler {
  /** Shows a form built from `params.requestedSchema` and returns the user's answer. Declares `elicitation.form`. */
  form?(params: ElicitRequestFormParams, context: ServerRequestContext): ElicitResult | Promise<ElicitResult>;
  /**
   * Asks the user to open `params.url` (never open it without consent; show its domain).
   * Return `accept` once they agreed to go. Declares `elicitation.url`.
   */
  url?(params: ElicitRequestURLParams, context: ServerRequestContext): ElicitResult | Promise<ElicitResult>;
  /** Fill each schema `default` into accepted form content that lacks the field. Default false. */
  readonly applyDefaults?: boolean;
}
