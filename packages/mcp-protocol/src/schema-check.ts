/**
 * Test support (not exported): validates messages against the official MCP JSON schemas,
 * copied to ../spec. A message is classified by method (and, for a result, by the method
 * of the request it answers), then validated against that method's own definition.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";

const REQUESTS: Record<string, string> = {
  initialize: "InitializeRequest",
  ping: "PingRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "resources/subscribe": "SubscribeRequest",
  "resources/unsubscribe": "UnsubscribeRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
  "completion/complete": "CompleteRequest",
  "logging/setLevel": "SetLevelRequest",
  "sampling/createMessage": "CreateMessageRequest",
  "elicitation/create": "ElicitRequest",
  "roots/list": "ListRootsRequest",
  "tasks/get": "GetTaskRequest",
  "tasks/result": "GetTaskPayloadRequest",
  "tasks/list": "ListTasksRequest",
  "tasks/cancel": "CancelTaskRequest",
};

const RESULTS: Record<string, string> = {
  initialize: "InitializeResult",
  ping: "EmptyResult",
  "tools/list": "ListToolsResult",
  "tools/call": "CallToolResult",
  "resources/list": "ListResourcesResult",
  "resources/templates/list": "ListResourceTemplatesResult",
  "resources/read": "ReadResourceResult",
  "resources/subscribe": "EmptyResult",
  "resources/unsubscribe": "EmptyResult",
  "prompts/list": "ListPromptsResult",
  "prompts/get": "GetPromptResult",
  "completion/complete": "CompleteResult",
  "logging/setLevel": "EmptyResult",
  "sampling/createMessage": "CreateMessageResult",
  "elicitation/create": "ElicitResult",
  "roots/list": "ListRootsResult",
  "tasks/get": "GetTaskResult",
  "tasks/result": "GetTaskPayloadResult",
  "tasks/list": "ListTasksResult",
  "tasks/cancel": "CancelTaskResult",
};

const NOTIFICATIONS: Record<string, string> = {
  "notifications/initialized": "InitializedNotification",
  "notifications/cancelled": "CancelledNotification",
  "notifications/progress": "ProgressNotification",
  "notifications/message": "LoggingMessageNotification",
  "notifications/tools/list_changed": "ToolListChangedNotification",
  "notifications/resources/list_changed": "ResourceListChangedNotification",
  "notifications/resources/updated": "ResourceUpdatedNotification",
  "notifications/prompts/list_changed": "PromptListChangedNotification",
  "notifications/roots/list_changed": "RootsListChangedNotification",
  "notifications/elicitation/complete": "ElicitationCompleteNotification",
  "notifications/tasks/status": "TaskStatusNotification",
};

/** The spec revisions whose schemas are stored in ../spec. */
export type SchemaRevision = "2025-11-25" | "2026-07-28";

/** A schema-backed validator of MCP definitions. */
export interface SchemaChecker {
  /** Errors of `value` against definition `name` (empty when valid). */
  check(name: string, value: unknown): string[];
  /** The definition a request or notification message belongs to. */
  classify(message: { method: string; id?: unknown }): string;
  /** The definition of the result answering `method`. */
  resultDefinition(method: string): string;
}

/** Loads a revision's schema and compiles validators on demand. */
export function createSchemaChecker(revision: SchemaRevision = "2025-11-25"): SchemaChecker {
  const path = fileURLToPath(new URL(`../spec/${revision}.schema.json`, import.meta.url));
  const schema = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ ...schema, $id: "mcp" });
  const cache = new Map<string, ValidateFunction>();
  const validator = (name: string): ValidateFunction => {
    let fn = cache.get(name);
    if (fn === undefined) {
      fn = ajv.compile({ $ref: `mcp#/$defs/${name}` });
      cache.set(name, fn);
    }
    return fn;
  };
  return {
    check(name, value) {
      const fn = validator(name);
      return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
    },
    classify(message) {
      const table = "id" in message ? REQUESTS : NOTIFICATIONS;
      const name = table[message.method];
      if (name === undefined) throw new Error(`no definition for ${message.method}`);
      return name;
    },
    resultDefinition(method) {
      const name = RESULTS[method];
      if (name === undefined) throw new Error(`no result definition for ${method}`);
      return name;
    },
  };
}
