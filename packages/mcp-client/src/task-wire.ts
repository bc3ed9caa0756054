/**
 * The two task wires in one place (DESIGN.md §3: the era differences live in one module per
 * side). MCP 2025-11-25 basic/utilities/tasks: a `{ task }` answer, `tasks/get` with `ttl` and
 * `pollInterval`, the payload from `tasks/result`, `tasks/cancel` answering the cancelled task.
 * The 2026-07-28 extension `io.modelcontextprotocol/tasks` (ext-tasks specification/draft): a
 * flat `resultType: "task"` answer, `tasks/get` answering a DetailedTask (the result, the error
 * or the open input requests inline, `ttlMs` and `pollIntervalMs`), `tasks/update`, and
 * `tasks/cancel` answering an empty acknowledgement. Everything a server sends is checked
 * here, so a malformed answer is an `INVALID_RESULT` error, never a crash further on.
 */
import { JsonRpcErrorCode, JsonRpcFaultCode, JsonRpcError, RequestError } from "@proto/jsonrpc";
import { RequestMethod, TASK_RESULT_TYPE, type CallToolResult, type TaskStatus } from "@proto/mcp-protocol";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import type { TaskInfo } from "./task-types";
import { ClientFaultCode, McpClientError } from "./errors";
import { checkResult } from "./result-shapes";

/** The `_meta` key of the text a host may show the model while a task runs (2025-11-25). */
const IMMEDIATE_RESPONSE = "io.modelcontextprotocol/model-immediate-response";

/** Longest task id accepted: ids are opaque, but a megabyte one is hostile. */
const MAX_TASK_ID = 1_024;

/** Most input requests one look at a task may carry. */
const MAX_INPUT_REQUESTS = 64;

const STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"] satisfies readonly TaskStatus[];
const TERMINAL: readonly string[] = ["completed", "failed", "cancelled"] satisfies readonly TaskStatus[];

type Params = { readonly [key: string]: unknown };

/** One input request a 2026-07-28 task is waiting on. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: Params;
}

/** What one look at a task returned: its state and, on the 2026-07-28 wire, what it carries inline. */
export interface TaskSnapshot {
  readonly info: TaskInfo;
  /** It came on the 2026-07-28 wire (its outcome and input requests are inline). */
  readonly modern: boolean;
  /** 2026-07-28 `completed`: the tool's result. */
  readonly result?: CallToolResult;
  /** 2026-07-28 `failed`: the JSON-RPC error the call ended with. */
  readonly error?: JsonRpcError;
  /** 2026-07-28 `input_required`: the open input requests, by key. */
  readonly inputRequests?: { readonly [key: string]: TaskInputRequest };
}

/** A `tools/call` answer that made a task. */
export interface CreatedTask {
  readonly snapshot: TaskSnapshot;
  readonly immediateResponse: string | undefined;
}

/** True for a plain JSON object (not null, not an array). */
function isRecord(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True for a connection fault a watch rides out: a timeout, a dropped connection, a failed reconnect. */
export function isTransient(error: unknown): boolean {
  if (error instanceof RequestError) return error.code === JsonRpcFaultCode.Timeout || error.code === JsonRpcFaultCode.Closed;
  return error instanceof McpClientError && (error.code === ClientFaultCode.ConnectFailed || error.code === ClientFaultCode.ConnectTimeout);
}

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

function invalid(what: string, problem: string, detail: unknown): McpClientError {
  return new McpClientError(ClientFaultCode.InvalidResult, `The server's ${what} is malformed: ${problem}`, { detail });
}

function interval(value: unknown, what: string, raw: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw invalid(what, "the poll interval must be a non-negative number", raw);
  return value;
}

/** Reads a task's state; `modern` picks the field names (`ttlMs`/`pollIntervalMs` or `ttl`/`pollInterval`). */
export function parseTaskInfo(raw: unknown, modern: boolean, what: string): TaskInfo {
  if (!isRecord(raw)) throw invalid(what, "a task must be an object", raw);
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt } = raw;
  if (typeof taskId !== "string" || taskId === "" || taskId.length > MAX_TASK_ID) throw invalid(what, `"taskId" must be a non-empty string of at most ${MAX_TASK_ID} characters`, raw);
  if (typeof status !== "string" || !STATUSES.includes(status)) throw invalid(what, `"status" must be one of ${STATUSES.join(", ")}`, raw);
  if (typeof createdAt !== "string" || typeof lastUpdatedAt !== "string") throw invalid(what, `"createdAt" and "lastUpdatedAt" must be ISO 8601 strings`, raw);
  if (statusMessage !== undefined && typeof statusMessage !== "string") throw invalid(what, `"statusMessage" must be a string when present`, raw);
  const ttl = modern ? raw.ttlMs : raw.ttl;
  if (ttl !== undefined && ttl !== null && (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl < 0)) throw invalid(what, "the ttl must be a non-negative number or null", raw);
  const poll = interval(modern ? raw.pollIntervalMs : raw.pollInterval, what, raw);
  return {
    taskId,
    status: status as TaskStatus,
    ...(statusMessage === undefined ? {} : { statusMessage }),
    createdAt,
    lastUpdatedAt,
    ttlMs: ttl ?? null,
    ...(poll === undefined ? {} : { pollIntervalMs: poll }),
  };
}

function parseError(raw: unknown, what: string): JsonRpcError {
  if (!isRecord(raw) || !Number.isInteger(raw.code) || typeof raw.message !== "string") throw invalid(what, `a failed task's "error" must be a JSON-RPC error { code, message }`, raw);
  return new JsonRpcError(raw.code as number, raw.message, raw.data);
}

function parseInputRequests(raw: unknown, what: string): { readonly [key: string]: TaskInputRequest } {
  if (!isRecord(raw)) throw invalid(what, `"inputRequests" must be an object`, raw);
  const entries = Object.entries(raw);
  if (entries.length > MAX_INPUT_REQUESTS) throw invalid(what, `${entries.length} input requests at once; at most ${MAX_INPUT_REQUESTS} are answered`, undefined);
  const out: { [key: string]: TaskInputRequest } = {};
  for (const [key, request] of entries) {
    if (!isRecord(request) || typeof request.method !== "string" || (request.params !== undefined && !isRecord(request.params))) {
      throw invalid(what, `input request "${key}" needs a string method and object params`, request);
    }
    out[key] = { method: request.method, params: request.params ?? {} };
  }
  return out;
}

/** Reads one look at a task: the state, and on the 2026-07-28 wire its inline result, error or input requests. */
export function parseSnapshot(raw: unknown, modern: boolean, what: string): TaskSnapshot {
  const info = parseTaskInfo(raw, modern, what);
  if (!modern) return { info, modern };
  const detailed = raw as Params;
  if (info.status === "completed") {
    if (!isRecord(detailed.result)) throw invalid(what, `a completed task needs its "result"`, raw);
    return { info, modern, result: checkResult(RequestMethod.ToolsCall, detailed.result) as CallToolResult };
  }
  if (info.status === "failed") return { info, modern, error: parseError(detailed.error, what) };
  if (info.status === "input_required" && detailed.inputRequests !== undefined) return { info, modern, inputRequests: parseInputRequests(detailed.inputRequests, what) };
  return { info, modern };
}

/** The task a `tools/call` answer made, or `undefined` for an ordinary result. */
export function createdTask(result: unknown, modern: boolean): CreatedTask | undefined {
  if (!isRecord(result)) return undefined;
  const what = `"tools/call" task answer`;
  if (modern) {
    if (result.resultType !== TASK_RESULT_TYPE) return undefined;
    return { snapshot: parseSnapshot(result, true, what), immediateResponse: undefined };
  }
  if (!isRecord(result.task) || Array.isArray(result.content)) return undefined;
  const meta = isRecord(result._meta) ? result._meta[IMMEDIATE_RESPONSE] : undefined;
  return { snapshot: { info: parseTaskInfo(result.task, false, what), modern: false }, immediateResponse: typeof meta === "string" ? meta : undefined };
}

/** The error of a task the server does not know (2025-11-25 and the extension both answer -32602). */
function notFound(taskId: string, error: unknown): unknown {
  if (!(error instanceof JsonRpcError) || error.code !== JsonRpcErrorCode.InvalidParams) return error;
  return new McpClientError(ClientFaultCode.TaskNotFound,
    `The server no longer knows task "${taskId}" (it expired after its ttlMs, was deleted, or never existed): ${error.message}`,
    { cause: error, detail: { taskId } });
}

/** True when the current connection speaks 2026-07-28 (connecting first when needed). */
export async function isModernNow(core: Core, signal: AbortSignal | undefined): Promise<boolean> {
  return (await core.connection.ensure(signal)).modern !== undefined;
}

/** `tasks/get`: the task's current state. An unknown task rejects with `TASK_NOT_FOUND`. */
export async function getTask(core: Core, taskId: string, options: RequestOptions | undefined): Promise<TaskSnapshot> {
  const modern = await isModernNow(core, options?.signal);
  try {
    return parseSnapshot(await core.send(RequestMethod.TasksGet, { taskId }, options), modern, `"tasks/get" result`);
  } catch (error) {
    throw notFound(taskId, error);
  }
}

/** 2025-11-25 `tasks/result`: waits for the task to end and returns the tool's result (or rejects with its error). */
export async function taskPayload(core: Core, taskId: string, options: RequestOptions | undefined): Promise<CallToolResult> {
  try {
    return checkResult(RequestMethod.ToolsCall, await core.send(RequestMethod.TasksResult, { taskId }, options)) as CallToolResult;
  } catch (error) {
    throw notFound(taskId, error);
  }
}

/**
 * `tasks/cancel`. Resolves with the state the server answered (2025-11-25), or `undefined`
 * (a 2026-07-28 acknowledgement, or a 2025 -32602: the task had already ended).
 */
export async function cancelTask(core: Core, taskId: string, options: RequestOptions | undefined): Promise<TaskInfo | undefined> {
  const modern = await isModernNow(core, options?.signal);
  try {
    const answer = await core.send(RequestMethod.TasksCancel, { taskId }, options);
    return modern ? undefined : parseTaskInfo(answer, false, `"tasks/cancel" result`);
  } catch (error) {
    if (!modern && error instanceof JsonRpcError && error.code === JsonRpcErrorCode.InvalidParams) return undefined;
    throw notFound(taskId, error);
  }
}

/** 2026-07-28 `tasks/update`: delivers answers to the task's input requests. */
export async function updateTask(core: Core, taskId: string, inputResponses: Params, options: RequestOptions | undefined): Promise<void> {
  try {
    await core.send(RequestMethod.TasksUpdate, { taskId, inputResponses }, options);
  } catch (error) {
    throw notFound(taskId, error);
  }
}
