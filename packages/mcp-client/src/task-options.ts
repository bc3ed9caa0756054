/**
 * Task settings of a client and the negotiation of the 2026-07-28 tasks extension
 * (ext-tasks "Capability Negotiation"): the client declares `io.modelcontextprotocol/tasks` in
 * the per-request capabilities of the requests that take part in tasks, when the server's
 * `server/discover` listed the extension. The 2025-11-25 rules (a task only where the server's
 * `tasks.requests.tools.call` and the tool's `execution.taskSupport` allow one) live here too.
 */
import type { ClientCapabilities, ServerCapabilities, Tool } from "@proto/mcp-protocol";
import { RequestMethod, TASKS_EXTENSION } from "@proto/mcp-protocol";
import type { TaskClientOptions } from "./task-types";
import { checkTimeout } from "./deadline";

/** `TaskClientOptions` with every default filled in. */
export interface ResolvedTaskOptions {
  readonly defaultPollIntervalMs: number;
  readonly maxPollIntervalMs: number;
  readonly listen: boolean;
}

/** Checks and completes `ClientOptions.tasks`. */
export function resolveTaskOptions(options: TaskClientOptions | undefined): ResolvedTaskOptions {
  if (options !== undefined && (typeof options !== "object" || options === null)) throw new TypeError("tasks must be an object: { defaultPollIntervalMs?, maxPollIntervalMs?, listen?, serveRequests? }");
  checkTimeout("tasks.defaultPollIntervalMs", options?.defaultPollIntervalMs);
  checkTimeout("tasks.maxPollIntervalMs", options?.maxPollIntervalMs);
  if (options?.listen !== undefined && typeof options.listen !== "boolean") throw new TypeError("tasks.listen must be a boolean");
  const serve = options?.serveRequests;
  if (serve !== undefined && typeof serve !== "boolean" && (typeof serve !== "object" || serve === null)) throw new TypeError("tasks.serveRequests must be a boolean or { maxTasks?, maxTtlMs?, pollIntervalMs? }");
  const maxPollIntervalMs = options?.maxPollIntervalMs ?? 30_000;
  return {
    defaultPollIntervalMs: Math.min(options?.defaultPollIntervalMs ?? 1_000, maxPollIntervalMs),
    maxPollIntervalMs,
    listen: options?.listen ?? true,
  };
}

/** The requests that take part in tasks on the 2026-07-28 wire. */
const TASK_METHODS: ReadonlySet<string> = new Set([RequestMethod.ToolsCall, RequestMethod.TasksGet, RequestMethod.TasksCancel, RequestMethod.TasksUpdate, RequestMethod.SubscriptionsListen]);

/** True when a 2026-07-28 server listed the tasks extension in `server/discover`. */
export function serverOffersTasks(capabilities: ServerCapabilities): boolean {
  const declared: unknown = capabilities.extensions?.[TASKS_EXTENSION];
  return typeof declared === "object" && declared !== null;
}

/** The per-request capabilities of a 2026-07-28 request: the tasks extension added where it applies. */
export function withTaskExtension(client: ClientCapabilities, server: ServerCapabilities, method: string): ClientCapabilities {
  if (!TASK_METHODS.has(method) || !serverOffersTasks(server)) return client;
  return { ...client, extensions: { ...client.extensions, [TASKS_EXTENSION]: {} } };
}

/** 2025-11-25: may `tool` be called as a task on a server with these capabilities? */
export function mayRunAsTask(server: ServerCapabilities, tool: Tool | undefined): boolean {
  if (server.tasks?.requests?.tools?.call === undefined) return false;
  const support = tool?.execution?.taskSupport;
  return support === "optional" || support === "required";
}

/** 2025-11-25: must `tool` be called as a task (its `taskSupport` is `"required"` on a server that runs tool tasks)? */
export function mustRunAsTask(server: ServerCapabilities, tool: Tool | undefined): boolean {
  return mayRunAsTask(server, tool) && tool?.execution?.taskSupport === "required";
}
