/**
 * Shared structures of MCP 2025-11-25 (schema.ts: JSON-RPC envelope fields, `_meta`,
 * pagination, icons, annotations, implementation info).
 */

/** A JSON value. */
export type JsonValue = string | number | boolean | null | JsonArray | JsonObject;
/** A JSON array. */
export type JsonArray = readonly JsonValue[];
/** A JSON object. */
export interface JsonObject {
  readonly [key: string]: JsonValue | undefined;
}

/** A `_meta` object: keys follow the rules of `parseMetaKey` (see `meta.ts`). */
export interface Meta {
  readonly [key: string]: unknown;
}

/** A JSON-RPC request id as MCP allows it (string or integer, never null). */
export type RequestId = string | number;

/** A token the requester chose to correlate `notifications/progress` with its request. */
export type ProgressToken = string | number;

/** An opaque pagination position. Clients never parse it. */
export type Cursor = string;

/** The `_meta` of a request: a progress token, and, per request, the protocol context keys. */
export interface RequestMeta extends Meta {
  /** Asks for `notifications/progress` carrying this token. */
  readonly progressToken?: ProgressToken;
  /** The version this request is made under; a version the server does not serve gets -32022. */
  readonly "io.modelcontextprotocol/protocolVersion"?: string;
}

/** Params every request may carry. */
export interface RequestParams {
  readonly _meta?: RequestMeta;
}

/** Params every notification may carry. */
export interface NotificationParams {
  readonly _meta?: Meta;
}

/** Fields every result may carry. */
export interface Result {
  readonly _meta?: Meta;
}

/** A result with nothing in it (ping, subscribe, setLevel). */
export type EmptyResult = Result;

/** Params of a paginated list request. */
export interface PaginatedRequestParams extends RequestParams {
  /** The `nextCursor` of the previous page; absent for the first page. */
  readonly cursor?: Cursor;
}

/** Fields of a paginated list result. */
export interface PaginatedResult extends Result {
  /** Present when there are more results; pass it back as `cursor`. */
  readonly nextCursor?: Cursor;
}

/** Who a message or content is meant for. */
export type Role = "user" | "assistant";

/** Hints on how a client uses or shows an object. */
export interface Annotations {
  /** Who the content is for. */
  readonly audience?: readonly Role[];
  /** Importance from 0 (optional) to 1 (required). */
  readonly priority?: number;
  /** ISO 8601 time of the last change. */
  readonly lastModified?: string;
}

/** An icon a client may show (2025-11-25). */
export interface Icon {
  /** An `https:` or `data:` URI of the image. */
  readonly src: string;
  /** MIME type, when the URI does not say it. */
  readonly mimeType?: string;
  /** Sizes as `WxH` strings or `any`. */
  readonly sizes?: readonly string[];
  /** The UI theme the icon is designed for. */
  readonly theme?: "light" | "dark";
}

/** Objects that may carry icons. */
export interface Icons {
  readonly icons?: readonly Icon[];
}

/** A programmatic name and a display title. */
export interface BaseMetadata {
  /** The programmatic identifier. */
  readonly name: string;
  /** A human-readable title for display. */
  readonly title?: string;
}

/** Name, version and presentation of a client or server implementation. */
export interface Implementation extends BaseMetadata, Icons {
  readonly version: string;
  /** A human-readable description. */
  readonly description?: string;
  /** The implementation's web site. */
  readonly websiteUrl?: string;
}
