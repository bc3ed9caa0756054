/**
 * Members that feature modules (logging, progress, client requests) add to every request
 * context. Owned by the features engineer: add a member here and install it from the
 * feature's `context` members (see "Writing a feature module" in the package README).
 */
import type { JsonRpcError } from "@proto/jsonrpc";
import type { CreateMessageRequestParams, CreateMessageResult, LoggingLevel, Root } from "@proto/mcp-protocol";
import type {
  ElicitationResult,
  ElicitationSchemaLike,
  FormElicitation,
  UrlElicitation,
  UrlElicitationResult,
} from "./client-requests/elicitation-types";
import type { ListRootsOptions } from "./client-requests/roots";
import type { ClientRequestOptions } from "./client-requests/types";

/** Context members contributed by the built-in features. */
export interface FeatureContext {
  /**
   * Sends `notifications/message` to the client when `level` is at or above the level the
   * session set with `logging/setLevel` (MCP server/utilities/logging). Never put secrets in
   * `data`. Resolves once sent or skipped; never rejects. Throws a `TypeError` for an unknown level.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Reports progress (MCP basic/utilities/progress): sends `notifications/progress` with the
   * request's `_meta.progressToken`, or does nothing when the request gave none. `progress`
   * must increase from call to call (a value that does not is dropped); `total` may be omitted
   * when unknown. Resolves once sent or skipped; never rejects.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`, MCP client/sampling).
   * Rejects with -32021 when the client did not declare `sampling` (or `sampling.tools` when
   * `tools` are offered), with the client's error when the user refuses. A tool that lets
   * these rejections escape fails with an `isError` result, except the -32021 of a 2026-07-28
   * request, which the spec makes the request's error (a `ProtocolError`).
   */
  sample(params: CreateMessageRequestParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user to fill a flat form (`elicitation/create`, form mode). The accepted content
   * is checked against `requestedSchema` and typed from it (declare a JSON Schema `as const`,
   * or pass a Standard JSON Schema: zod, valibot, arktype, whose validation also runs).
   * Rejects with -32021 when the client does not support form-mode elicitation.
   */
  elicit<const S extends ElicitationSchemaLike>(params: FormElicitation<S>, options?: ClientRequestOptions): Promise<ElicitationResult<S>>;
  /**
   * Sends the user to a URL out of band (`elicitation/create`, URL mode). Call
   * `completeElicitation(elicitationId)` on the server when the interaction is done.
   * Rejects with -32021 when the client does not support URL-mode elicitation.
   */
  elicitUrl(params: UrlElicitation, options?: ClientRequestOptions): Promise<UrlElicitationResult>;
  /**
   * Returns the -32042 error to throw when the request cannot proceed until the user has
   * visited these URLs, a `ProtocolError` (or -32021 when the client lacks URL-mode elicitation).
   */
  urlElicitationRequired(elicitations: UrlElicitation | readonly UrlElicitation[], message?: string): JsonRpcError;
  /** Asks the client for its roots (`roots/list`); rejects with -32021 when it did not declare `roots`. */
  listRoots(options?: ListRootsOptions): Promise<readonly Root[]>;
}
