/** Resources and resource templates (MCP 2025-11-25, server/resources). */
import type { Annotations, Icons, Meta, NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from "./base";
import type { BlobResourceContents, TextResourceContents } from "./content";

/** A resource the server can read. */
export interface Resource extends Icons {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes, when known. */
  readonly size?: number;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A family of resources addressed by an RFC 6570 URI template. */
export interface ResourceTemplate extends Icons {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The MIME type of every resource matching the template, when they share one. */
  readonly mimeType?: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** Params of `resources/list`. */
export type ListResourcesRequestParams = PaginatedRequestParams;

/** Result of `resources/list`. */
export interface ListResourcesResult extends PaginatedResult {
  readonly resources: readonly Resource[];
}

/** Params of `resources/templates/list`. */
export type ListResourceTemplatesRequestParams = PaginatedRequestParams;

/** Result of `resources/templates/list`. */
export interface ListResourceTemplatesResult extends PaginatedResult {
  readonly resourceTemplates: readonly ResourceTemplate[];
}

/** Params of requests about one resource: `resources/read`, `resources/subscribe`, `resources/unsubscribe`. */
export interface ResourceRequestParams extends RequestParams {
  readonly uri: string;
}

/** Params of `resources/read`. */
export type ReadResourceRequestParams = ResourceRequestParams;
/** Params of `resources/subscribe`. */
export type SubscribeRequestParams = ResourceRequestParams;
/** Params of `resources/unsubscribe`. */
export type UnsubscribeRequestParams = ResourceRequestParams;

/** Result of `resources/read`. */
export interface ReadResourceResult extends Result {
  readonly contents: readonly (TextResourceContents | BlobResourceContents)[];
}

/** Params of `notifications/resources/updated`. */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  /** The URI that changed (possibly a sub-resource of the one subscribed to). */
  readonly uri: string;
}
