/**
 * `x-mcp-header` on the client (2026-07-28, server/tools "x-mcp-header" and
 * basic/transports/streamable-http "Custom Headers from Tool Parameters"): the transport
 * checks every tool a modern `tools/list` answer carries, drops the tools whose annotations
 * are invalid (reporting each), remembers the valid bindings by tool name, and mirrors the
 * bound argument values into `Mcp-Param-{Name}` headers of later `tools/call` requests.
 */
import type { JsonRpcMessage, JsonRpcPayload, JsonRpcRequest } from "@proto/jsonrpc";
import { isSuccess } from "@proto/jsonrpc";
import { McpHttpHeader, encodeHeaderValue, headerParamText, headerParamsOf, type HeaderParam } from "@proto/mcp-protocol";

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A tool dropped from a `tools/list` answer, and why. */
export interface RejectedTool {
  readonly tool: string;
  readonly reason: string;
}

/** What one transport knows of its server's tools' header bindings. */
export interface ToolHeaders {
  /** The `Mcp-Param-*` headers of a `tools/call` request (none for a tool never listed). */
  headersFor(request: JsonRpcRequest): Record<string, string>;
  /** Filters a payload holding the answer to `tools/list` request `id`: invalid tools are dropped and reported. */
  filterList(payload: JsonRpcPayload, id: JsonRpcRequest["id"], rejected: (tool: RejectedTool) => void): JsonRpcPayload;
}

function filterOne(message: JsonRpcMessage, id: JsonRpcRequest["id"], known: Map<string, readonly HeaderParam[]>, rejected: (tool: RejectedTool) => void): JsonRpcMessage {
  if (!isSuccess(message) || message.id !== id || !isObject(message.result) || !Array.isArray(message.result.tools)) return message;
  const kept: unknown[] = [];
  for (const tool of message.result.tools as unknown[]) {
    const name = isObject(tool) && typeof tool.name === "string" ? tool.name : undefined;
    const verdict = headerParamsOf(isObject(tool) ? tool.inputSchema : undefined);
    if (name === undefined || "params" in verdict) {
      if (name !== undefined && "params" in verdict) known.set(name, verdict.params);
      kept.push(tool);
    } else {
      known.delete(name);
      rejected({ tool: name, reason: verdict.problem });
    }
  }
  return kept.length === message.result.tools.length ? message : { ...message, result: { ...message.result, tools: kept } };
}

/** Creates the binding memory of one transport. */
export function createToolHeaders(): ToolHeaders {
  const known = new Map<string, readonly HeaderParam[]>();
  return {
    headersFor(request) {
      const params = request.params as { readonly name?: unknown; readonly arguments?: unknown } | undefined;
      const bindings = typeof params?.name === "string" ? known.get(params.name) : undefined;
      const headers: Record<string, string> = {};
      for (const param of bindings ?? []) {
        const text = headerParamText(param, params?.arguments);
        if (text !== undefined) headers[`${McpHttpHeader.ParamPrefix}${param.header.toLowerCase()}`] = encodeHeaderValue(text);
      }
      return headers;
    },
    filterList(payload, id, rejected) {
      if (Array.isArray(payload)) return payload.map((message: JsonRpcMessage) => filterOne(message, id, known, rejected));
      return filterOne(payload as JsonRpcMessage, id, known, rejected);
    },
  };
}
