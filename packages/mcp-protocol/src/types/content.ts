/**
 * Content blocks and resource contents (MCP 2025-11-25, server/tools "Tool Result",
 * server/resources "Resource Contents", client/sampling "tools in sampling").
 */
import type { Annotations, Icons, Meta } from "./base";
import type { Resource } from "./resources";

/** Text for the model or user. */
export interface TextContent {
  readonly type: "text";
  readonly text: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A base64-encoded image. */
export interface ImageContent {
  readonly type: "image";
  /** Base64 data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** Base64-encoded audio. */
export interface AudioContent {
  readonly type: "audio";
  /** Base64 data. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** Fields shared by text and blob contents of a resource. */
export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly _meta?: Meta;
}

/** A resource's contents as text. */
export interface TextResourceContents extends ResourceContents {
  readonly text: string;
}

/** A resource's contents as base64 binary. */
export interface BlobResourceContents extends ResourceContents {
  /** Base64 data. */
  readonly blob: string;
}

/** A resource embedded in a message or tool result. */
export interface EmbeddedResource {
  readonly type: "resource";
  readonly resource: TextResourceContents | BlobResourceContents;
  readonly annotations?: Annotations;
  readonly _meta?: Meta;
}

/** A link to a resource the client may read (not necessarily listed). */
export interface ResourceLink extends Resource {
  readonly type: "resource_link";
}

/** Any content block of a tool result or prompt message. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** A model's request to call a tool, inside sampling (2025-11-25). */
export interface ToolUseContent {
  readonly type: "tool_use";
  /** Correlates the matching `tool_result`. */
  readonly id: string;
  readonly name: string;
  readonly input: { readonly [key: string]: unknown };
  readonly _meta?: Meta;
}

/** The result of a tool call, fed back to the model in sampling (2025-11-25). */
export interface ToolResultContent {
  readonly type: "tool_result";
  /** The `id` of the `tool_use` this answers. */
  readonly toolUseId: string;
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: { readonly [key: string]: unknown };
  readonly isError?: boolean;
  readonly _meta?: Meta;
}

/** A content block of a sampling message. */
export type SamplingMessageContentBlock = TextContent | ImageContent | AudioContent | ToolUseContent | ToolResultContent;
