/**
 * Turns a prompt handler's return value into a `GetPromptResult`, checking each content
 * block's type (MCP 2025-11-25 `ContentBlock`: text, image, audio, resource, resource_link).
 */
import type { ContentBlock, GetPromptResult, PromptMessage } from "@proto/mcp-protocol";
import type { PromptMessageInput, PromptReturn } from "./types";

const TYPES = new Set(["text", "image", "audio", "resource", "resource_link"]);

function block(content: string | ContentBlock, where: string): ContentBlock {
  if (typeof content === "string") return { type: "text", text: content };
  const type = (content as { type?: unknown } | null)?.type;
  if (typeof type !== "string" || !TYPES.has(type)) {
    throw new TypeError(`${where}: content type ${JSON.stringify(type)} is not text, image, audio, resource or resource_link`);
  }
  return content;
}

function message(input: PromptMessageInput, where: string): PromptMessage {
  if (typeof input !== "object" || input === null || (input.role !== "user" && input.role !== "assistant")) {
    throw new TypeError(`${where}: each message needs role "user" or "assistant" and content`);
  }
  return { role: input.role, content: block(input.content, where) };
}

/** Normalizes `value`; `description` is used when the handler gives none. Throws a `TypeError` for a bad shape. */
export function toPromptResult(value: PromptReturn, description: string | undefined, where: string): GetPromptResult {
  if (typeof value === "string") {
    const messages: PromptMessage[] = [{ role: "user", content: { type: "text", text: value } }];
    return description === undefined ? { messages } : { description, messages };
  }
  if (Array.isArray(value)) {
    const messages = (value as readonly PromptMessageInput[]).map((m) => message(m, where));
    return description === undefined ? { messages } : { description, messages };
  }
  if (typeof value === "object" && value !== null && Array.isArray((value as { messages?: unknown }).messages)) {
    const result = value as Exclude<PromptReturn, string | readonly PromptMessageInput[]>;
    const out = { ...result, messages: result.messages.map((m) => message(m, where)) };
    return out.description === undefined && description !== undefined ? { ...out, description } : out;
  }
  throw new TypeError(`${where}: return a string, a list of messages, or { messages }`);
}
