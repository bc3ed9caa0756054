/**
 * Structures the stateless revision added (MCP 2026-07-28 schema.ts): the per-request
 * envelope, `resultType` and cache fields, multi-round input (`input_required`, SEP-2322)
 * and `subscriptions/listen`.
 */
import type { Implementation, Meta, NotificationParams, RequestMeta, RequestParams, Result } from "./base";
import type { ClientCapabilities } from "./capabilities";
import type { ElicitRequestParams, ElicitResult } from "./elicitation";
import type { LoggingLevel } from "./logging";
import type { ListRootsRequestParams, ListRootsResult } from "./roots";
import type { CreateMessageRequestParams, CreateMessageResult } from "./sampling";

/** The `resultType` values the core revision defines; extensions add more (e.g. `"task"`). */
export const ResultType = {
  /** The request is done; the result holds its content. */
  Complete: "complete",
  /** The server needs client input first; the client retries with `inputResponses`. */
  InputRequired: "input_required",
} as const;

/** One of the core `resultType` values. */
export type ResultType = (typeof ResultType)[keyof typeof ResultType];

/** Who may share a cached result: any caller (`public`) or one authorization context (`private`). */
export type CacheScope = "public" | "private";

/**
 * The `_meta` of a request made under a stateless revision: the protocol context travels with
 * every request; nothing is inferred from earlier requests or from the connection.
 */
export interface ModernRequestMeta extends RequestMeta {
  readonly "io.modelcontextprotocol/protocolVersion": string;
  /** What the client supports for this one request (`{}` = nothing optional). */
  readonly "io.modelcontextprotocol/clientCapabilities": ClientCapabilities;
  /** For display and logs only, never for behaviour. */
  readonly "io.modelcontextprotocol/clientInfo"?: Implementation;
  /** Log messages at or above this level for this request; absent = none. */
  readonly "io.modelcontextprotocol/logLevel"?: LoggingLevel;
}

/** Fields every stateless-revision result carries. */
export interface ModernResultFields {
  readonly resultType: string;
  readonly _meta?: Meta & { readonly "io.modelcontextprotocol/serverInfo"?: Implementation };
}

/** The cache hints of list, read and discover results (2026-07-28 server/utilities/caching). */
export interface CacheHints {
  /** How long the result may be reused, in milliseconds (0 = immediately stale). */
  readonly ttlMs: number;
  readonly cacheScope: CacheScope;
}

/** A request the server embeds in an `input_required` result: no `jsonrpc`, no `id`, no envelope. */
export type InputRequest =
  | { readonly method: "sampling/createMessage"; readonly params: CreateMessageRequestParams }
  | { readonly method: "elicitation/create"; readonly params: ElicitRequestParams }
  | { readonly method: "roots/list"; readonly params?: ListRootsRequestParams };

/** Input requests by server-chosen key (unique within the request). */
export interface InputRequests {
  readonly [key: string]: InputRequest;
}

/** The client's answer to one input request: the bare result, without `resultType`. */
export type InputResponse = CreateMessageResult | ElicitResult | ListRootsResult;

/** Input responses by the key of the input request they answer. */
export interface InputResponses {
  readonly [key: string]: InputResponse;
}

/**
 * The result that ends a round of `tools/call`, `prompts/get` or `resources/read` when the
 * server needs client input. At least one of `inputRequests` and `requestState` is present;
 * the client echoes `requestState` byte for byte and never parses it.
 */
export interface InputRequiredResult extends Result {
  readonly resultType: "input_required";
  readonly inputRequests?: InputRequests;
  readonly requestState?: string;
}

/** The retry fields of `tools/call`, `prompts/get` and `resources/read` params. */
export interface InputResponseRequestParams extends RequestParams {
  readonly inputResponses?: InputResponses;
  readonly requestState?: string;
}

/** What a `subscriptions/listen` opts in to; every type is opt-in. */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs (it replaces `resources/subscribe`). */
  readonly resourceSubscriptions?: readonly string[];
  /** `notifications/tasks` for these task ids (tasks extension; needs the extension on the listen). */
  readonly taskIds?: readonly string[];
}

/** Params of `subscriptions/listen`. */
export interface SubscriptionsListenRequestParams extends RequestParams {
  readonly notifications: SubscriptionFilter;
}

/** Params of `notifications/subscriptions/acknowledged`: the subset the server honours. */
export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {
  readonly notifications: SubscriptionFilter;
}

/** The result of `subscriptions/listen`, sent only when the server ends the stream gracefully. */
export interface SubscriptionsListenResult extends Result {
  readonly resultType: string;
  readonly _meta: Meta & { readonly "io.modelcontextprotocol/subscriptionId": string | number };
}
