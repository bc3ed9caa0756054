/**
 * `sampling/createMessage` (MCP 2025-11-25, client/sampling): the server asks the client's
 * model for a completion. Checked first: the client declared `sampling`, and `sampling.tools`
 * when tools are offered, and `sampling.context` when context inclusion is asked.
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import { RequestMethod } from "@proto/mcp-protocol";
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult } from "@proto/mcp-protocol";
import { missingCapability } from "./capabilities";
import { MalformedResultError } from "./types";
import type { ClientRequestOptions, ClientTarget } from "./types";

const TOOL_CONTENT = new Set(["tool_use", "tool_result"]);

/** True when a message carries tool use or tool result content (only for clients with `sampling.tools`). */
function hasToolContent(params: CreateMessageRequestParams): boolean {
  return params.messages.some((m) => {
    const blocks: readonly unknown[] = Array.isArray(m?.content) ? m.content : [m?.content];
    return blocks.some((b) => TOOL_CONTENT.has((b as { type?: string } | null)?.type ?? ""));
  });
}

function required(params: CreateMessageRequestParams, caps: ClientCapabilities): ClientCapabilities | undefined {
  if (caps.sampling === undefined) return { sampling: {} };
  const usesTools = params.tools !== undefined || params.toolChoice !== undefined || hasToolContent(params);
  if (usesTools && caps.sampling.tools === undefined) {
    return { sampling: { tools: {} } };
  }
  const context = params.includeContext;
  if (context !== undefined && context !== "none" && caps.sampling.context === undefined) return { sampling: { context: {} } };
  return undefined;
}

function checkParams(params: CreateMessageRequestParams): void {
  if (typeof params !== "object" || params === null || !Array.isArray(params.messages)) {
    throw new TypeError("sample(): pass { messages: [...], maxTokens } (MCP sampling/createMessage params)");
  }
  if (!Number.isInteger(params.maxTokens) || params.maxTokens <= 0) {
    throw new TypeError(`sample(): maxTokens must be a positive integer, got ${String(params.maxTokens)}`);
  }
}

function isContent(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

function checkResult(result: unknown): CreateMessageResult {
  const r = result as Partial<CreateMessageResult> | null;
  const method = RequestMethod.SamplingCreateMessage;
  if (typeof r !== "object" || r === null) throw new MalformedResultError(method, "expected an object");
  if (r.role !== "user" && r.role !== "assistant") throw new MalformedResultError(method, `role ${JSON.stringify(r.role)} is not "user" or "assistant"`);
  if (typeof r.model !== "string") throw new MalformedResultError(method, "model must be a string");
  const content: unknown = r.content;
  if (!(Array.isArray(content) ? content.every(isContent) : isContent(content))) {
    throw new MalformedResultError(method, "content must be a content block or an array of them");
  }
  return r as CreateMessageResult;
}

/**
 * Asks the client to sample from its model. Rejects with -32021 (`missingCapability`: a `ProtocolError` under 2026-07-28)
 * when the client lacks the capability, with the client's own error when it refuses (users
 * may decline), with `MalformedResultError` for a result of the wrong shape.
 */
export async function sample(
  target: ClientTarget,
  params: CreateMessageRequestParams,
  options: ClientRequestOptions = {},
): Promise<CreateMessageResult> {
  checkParams(params);
  const missing = required(params, target.clientCapabilities);
  if (missing !== undefined) throw missingCapability(target, missing, "sample()");
  const result = await target.request(RequestMethod.SamplingCreateMessage, params as unknown as JsonRpcParams, options);
  return checkResult(result);
}
