/** Sampling, including tools in sampling (MCP 2025-11-25, client/sampling). */
import type { Meta, RequestParams, Result, Role } from "./base";
import type { AudioContent, ImageContent, SamplingMessageContentBlock, TextContent, ToolResultContent, ToolUseContent } from "./content";
import type { TaskMetadata } from "./tasks";
import type { Tool } from "./tools";

/** A hint about which model to use (substring match on model names). */
export interface ModelHint {
  readonly name?: string;
}

/** How the client should trade cost, speed and intelligence, each 0 to 1. */
export interface ModelPreferences {
  readonly hints?: readonly ModelHint[];
  readonly costPriority?: number;
  readonly speedPriority?: number;
  readonly intelligencePriority?: number;
}

/** One message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: Role;
  readonly content: SamplingMessageContentBlock | readonly SamplingMessageContentBlock[];
  readonly _meta?: Meta;
}

/** How the model may use the tools offered in sampling. */
export interface ToolChoice {
  readonly mode?: "auto" | "required" | "none";
}

/** Params of `sampling/createMessage`. */
export interface CreateMessageRequestParams extends RequestParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly modelPreferences?: ModelPreferences;
  readonly systemPrompt?: string;
  /** Soft-deprecated; only when the client declares `sampling.context`. */
  readonly includeContext?: "none" | "thisServer" | "allServers";
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  /** Provider-specific metadata passed through. */
  readonly metadata?: { readonly [key: string]: unknown };
  /** Tools the model may call; only when the client declares `sampling.tools`. */
  readonly tools?: readonly Tool[];
  readonly toolChoice?: ToolChoice;
  readonly task?: TaskMetadata;
}

/** Result of `sampling/createMessage`. */
export interface CreateMessageResult extends Result {
  readonly role: Role;
  readonly content:
    | TextContent
    | ImageContent
    | AudioContent
    | ToolUseContent
    | ToolResultContent
    | readonly SamplingMessageContentBlock[];
  /** The model that produced the message. */
  readonly model: string;
  /** Why sampling stopped: `endTurn`, `stopSequence`, `maxTokens`, `toolUse`, or a provider value. */
  readonly stopReason?: string;
}
