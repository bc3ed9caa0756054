/**
 * Tools on the client side (MCP 2025-11-25, server/tools): listing (one page, an iterator,
 * a cached full list), calling with output-schema validation, the throwing variant, and
 * concurrent batches.
 */
import { RequestMethod, type CallToolResult, type ListToolsResult, type Tool } from "@proto/mcp-protocol";
import type { CallToolOptions, Client, ListAllOptions } from "./client-types";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import { callTools } from "./call-tools";
import { ClientFaultCode, McpClientError, ToolCallError } from "./errors";
import { collect, createTtlTracker, paginate, type TtlTracker } from "./lists";
import { createTasksApi, runCreatedTask, type ToolCallHelpers } from "./api-tasks";
import { mustRunAsTask } from "./task-options";
import { createdTask } from "./task-wire";

type ToolsApi = Pick<Client, "listTools" | "tools" | "listAllTools" | "callTool" | "callToolOrThrow" | "callTools" | "callToolAsTask" | "resumeTask">;

function cursorParams(cursor: string | undefined): { cursor: string } | undefined {
  if (cursor !== undefined && typeof cursor !== "string") throw new TypeError("cursor must be a string (the previous page's nextCursor)");
  return cursor === undefined ? undefined : { cursor };
}

function checkStructured(core: Core, tool: Tool, result: CallToolResult): void {
  if (tool.outputSchema === undefined || result.isError === true) return;
  if (typeof result.structuredContent !== "object" || result.structuredContent === null) {
    throw new McpClientError(ClientFaultCode.OutputSchemaViolation,
      `Tool "${tool.name}" declares an outputSchema but returned no structuredContent; the server is at fault (pass validateOutput: false to accept it)`,
      { detail: { tool: tool.name, result } });
  }
  let verdict;
  try {
    verdict = core.validator.validate(tool.outputSchema, result.structuredContent);
  } catch (error) {
    throw new McpClientError(ClientFaultCode.InvalidOutputSchema,
      `Tool "${tool.name}" has an outputSchema that cannot be used: ${(error as Error).message} (pass validateOutput: false to skip validation)`,
      { cause: error, detail: { tool: tool.name } });
  }
  if (!verdict.ok) {
    throw new McpClientError(ClientFaultCode.OutputSchemaViolation,
      `Tool "${tool.name}" returned structuredContent that does not match its outputSchema: ${verdict.message}`,
      { detail: { tool: tool.name, errors: verdict.errors, result } });
  }
}

/** Whether a successful `tools/call` result is a tool error (the observer's `tool_error` outcome). */
function isToolError(result: unknown): boolean {
  return (result as CallToolResult).isError === true;
}

/** Builds the tool methods of a client. */
export function createToolsApi(core: Core, self: () => Client): ToolsApi {
  const listTools = (cursor?: string, options?: RequestOptions) =>
    core.send(RequestMethod.ToolsList, cursorParams(cursor), options) as Promise<ListToolsResult>;
  const tools = (options?: RequestOptions, ttl?: TtlTracker) =>
    paginate(RequestMethod.ToolsList, async (cursor) => {
      const page = await listTools(cursor, options);
      ttl?.see(page);
      return { items: page.tools, nextCursor: page.nextCursor };
    }, core.maxPages);
  const listAllTools = async (options?: ListAllOptions): Promise<readonly Tool[]> => {
    if (options?.refresh) core.caches.tools.invalidate();
    const ttl = createTtlTracker(core.connection.session?.modern !== undefined);
    return core.caches.tools.get(() => collect(tools(options, ttl)), ttl.ttl);
  };

  let byName: { list: readonly Tool[]; map: Map<string, Tool> } | undefined;

  async function definition(name: string, options: CallToolOptions | undefined): Promise<Tool | undefined> {
    // Without the tools capability the call itself fails with a clear error; listing would only add noise.
    const capabilities = core.connection.session?.server.capabilities;
    if (capabilities !== undefined && capabilities.tools === undefined && core.options.enforceCapabilities !== false) return undefined;
    try {
      // A list past its ttlMs still names the tool's outputSchema: validation never re-lists for it.
      // (a private list only for the credentials it was loaded with: another user's outputSchema would be the wrong one)
      const peeked = core.caches.tools.peek();
      const list = (peeked instanceof Promise ? await peeked : peeked) ?? (await listAllTools(options?.signal === undefined ? undefined : { signal: options.signal }));
      if (byName?.list !== list) byName = { list, map: new Map(list.map((tool) => [tool.name, tool])) };
      return byName.map.get(name);
    } catch (error) {
      core.logger.warn(`Could not list tools to validate the output of "${name}"; its structuredContent was not checked`, error);
      return undefined;
    }
  }

  const send: ToolCallHelpers["send"] = (params, name, options) => core.send(RequestMethod.ToolsCall, params, options, { tool: name, isToolError });

  /** 2025-11-25: a tool whose `taskSupport` is `"required"` is called as a task (asked for only on servers that run tool tasks). */
  async function needsTask(name: string, tool: Promise<Tool | undefined> | undefined, options: CallToolOptions | undefined): Promise<boolean> {
    const session = core.connection.session ?? (await core.connection.ensure(options?.signal));
    if (session.modern !== undefined || session.server.capabilities.tasks?.requests?.tools?.call === undefined) return false;
    return mustRunAsTask(session.server.capabilities, await (tool ?? definition(name, options)));
  }

  async function callTool(name: string, args?: { readonly [key: string]: unknown }, options?: CallToolOptions): Promise<CallToolResult> {
    if (typeof name !== "string" || name === "") throw new TypeError("callTool(name, args): name must be a non-empty string");
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
      throw new TypeError(`callTool("${name}", args): args must be an object of named arguments`);
    }
    const validate = options?.validateOutput ?? core.options.validateToolOutput ?? true;
    // Listing runs alongside the call (cached after the first time), so validation costs no extra round trip.
    const tool = validate ? definition(name, options) : undefined;
    const session = core.connection.session;
    // Only a 2025-11-25 server that runs tool tasks costs the extra look (once: the list is cached);
    // a 2026-07-28 session never does (the server answers with a task when it makes one).
    const asTask = session?.modern === undefined && (session === undefined || session.server.capabilities.tasks !== undefined) && (await needsTask(name, tool, options));
    // Built key by key, not with spreads: this runs on every call (same key order on the wire).
    const params: { [key: string]: unknown } = { name };
    if (args !== undefined) params.arguments = args;
    if (asTask) params.task = {};
    const answer = await send(params, name, options);
    const created = createdTask(answer, core.connection.session?.modern !== undefined);
    const result = created === undefined ? (answer as CallToolResult) : await runCreatedTask(core, created, options);
    if (tool === undefined) return result;
    const found = await tool;
    if (found !== undefined) checkStructured(core, found, result);
    return result;
  }

  return {
    listTools,
    tools,
    listAllTools,
    callTool,
    async callToolOrThrow(name, args, options) {
      const result = await callTool(name, args, options);
      if (result.isError === true) throw new ToolCallError(name, result);
      return result;
    },
    callTools: (calls, options) => callTools(self(), calls, options),
    ...createTasksApi(core, { definition, checkOutput: (tool, result) => checkStructured(core, tool, result), send }),
  };
}
