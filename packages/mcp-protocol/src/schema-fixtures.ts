/**
 * Test support (not exported): one typed example of every MCP 2025-11-25 message, written
 * with this package's types, so the schema test proves the types produce valid messages.
 */
import type {
  ClientNotificationMap,
  ClientRequestMap,
  ServerNotificationMap,
  ServerRequestMap,
} from "./types/messages";
import type { Icon, Implementation } from "./types/base";
import type { ContentBlock } from "./types/content";
import type { Task } from "./types/tasks";
import type { Tool } from "./types/tools";

type Examples<M> = { [K in keyof M]: M[K] extends { params: infer P; result: infer R } ? { params: P; results: R[] } : never };
type NotificationExamples<M> = { [K in keyof M]: M[K][] };

const icon: Icon = { src: "https://example.com/i.png", mimeType: "image/png", sizes: ["48x48", "any"], theme: "dark" };
const impl: Implementation = { name: "x", version: "1.0.0", title: "X", description: "d", websiteUrl: "https://x.example", icons: [icon] };
const blocks: ContentBlock[] = [
  { type: "text", text: "hi", annotations: { audience: ["user", "assistant"], priority: 0.5, lastModified: "2025-01-01T00:00:00Z" } },
  { type: "image", data: "aGk=", mimeType: "image/png" },
  { type: "audio", data: "aGk=", mimeType: "audio/wav", _meta: { "com.example/x": 1 } },
  { type: "resource_link", uri: "file:///a.txt", name: "a", title: "A", description: "file", mimeType: "text/plain", size: 3, icons: [icon] },
  { type: "resource", resource: { uri: "file:///a.txt", text: "abc", mimeType: "text/plain" } },
  { type: "resource", resource: { uri: "file:///b.bin", blob: "AAE=" } },
];
const tool: Tool = {
  name: "add",
  title: "Add",
  description: "Adds",
  inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"], $schema: "https://json-schema.org/draft/2020-12/schema" },
  outputSchema: { type: "object", properties: { sum: { type: "number" } } },
  annotations: { title: "Add", readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false, writes: false },
  execution: { taskSupport: "optional" },
  icons: [icon],
  _meta: { "com.example/tag": "math" },
};
const task: Task = { taskId: "t1", status: "working", statusMessage: "busy", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:01Z", ttl: 60000, pollInterval: 500 };

/** Every client request with its possible results. */
export const clientRequests: Examples<ClientRequestMap> = {
  initialize: {
    params: {
      protocolVersion: "2025-11-25",
      clientInfo: impl,
      capabilities: {
        roots: { listChanged: true },
        sampling: { context: {}, tools: {} },
        elicitation: { form: {}, url: {} },
        experimental: { "x.y": { a: 1 } },
        extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
        tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      },
    },
    results: [{
      protocolVersion: "2025-11-25",
      serverInfo: impl,
      instructions: "Use add.",
      capabilities: {
        tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true },
        logging: {}, completions: {}, experimental: {}, extensions: { "io.modelcontextprotocol/ui": {} },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
    }],
  },
  "server/discover": { params: undefined, results: [] },
  ping: { params: { _meta: { progressToken: 1 } }, results: [{}] },
  "tools/list": { params: { cursor: "abc" }, results: [{ tools: [tool, { name: "b", inputSchema: { type: "object" } }], nextCursor: "n" }] },
  "tools/call": {
    params: { name: "add", arguments: { a: 1 }, _meta: { progressToken: "p", "io.modelcontextprotocol/protocolVersion": "2025-11-25" }, task: { ttl: 1000 } },
    results: [{ content: blocks, structuredContent: { sum: 1 }, isError: false }, { task }],
  },
  "resources/list": { params: undefined, results: [{ resources: [{ uri: "file:///a", name: "a", title: "A", description: "d", mimeType: "text/plain", size: 1, icons: [icon], annotations: { priority: 1 } }] }] },
  "resources/templates/list": { params: {}, results: [{ resourceTemplates: [{ uriTemplate: "file:///{path}", name: "files", mimeType: "text/plain" }] }] },
  "resources/read": { params: { uri: "file:///a" }, results: [{ contents: [{ uri: "file:///a", text: "x" }, { uri: "file:///b", blob: "AA==" }] }] },
  "resources/subscribe": { params: { uri: "file:///a" }, results: [{}] },
  "resources/unsubscribe": { params: { uri: "file:///a" }, results: [{}] },
  "prompts/list": { params: undefined, results: [{ prompts: [{ name: "p", title: "P", description: "d", arguments: [{ name: "a", title: "A", description: "x", required: true }], icons: [icon] }] }] },
  "prompts/get": {
    params: { name: "p", arguments: { a: "1" } },
    results: [{ description: "d", messages: blocks.map((content) => ({ role: "user" as const, content })) }],
  },
  "completion/complete": {
    params: { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "x" }, context: { arguments: { b: "y" } } },
    results: [{ completion: { values: ["xa", "xb"], total: 10, hasMore: true } }],
  },
  "logging/setLevel": { params: { level: "warning" }, results: [{}] },
  "tasks/get": { params: { taskId: "t1" }, results: [{ ...task }] },
  "tasks/result": { params: { taskId: "t1" }, results: [{ content: [], _meta: { "io.modelcontextprotocol/related-task": { taskId: "t1" } } }] },
  "tasks/list": { params: { cursor: "c" }, results: [{ tasks: [task], nextCursor: "d" }] },
  "tasks/cancel": { params: { taskId: "t1" }, results: [{ ...task, status: "cancelled", ttl: null }] },
};

/** Every server request with its possible results. */
export const serverRequests: Examples<ServerRequestMap> = {
  ping: { params: undefined, results: [{}] },
  "sampling/createMessage": {
    params: {
      messages: [
        { role: "user", content: { type: "text", text: "weather?" } },
        { role: "assistant", content: [{ type: "tool_use", id: "u1", name: "weather", input: { city: "Paris" } }] },
        { role: "user", content: [{ type: "tool_result", toolUseId: "u1", content: [{ type: "text", text: "sunny" }], structuredContent: { t: 20 }, isError: false }] },
      ],
      maxTokens: 100,
      systemPrompt: "be brief",
      includeContext: "thisServer",
      temperature: 0.2,
      stopSequences: ["\n"],
      metadata: { k: 1 },
      modelPreferences: { hints: [{ name: "claude" }], costPriority: 0.1, speedPriority: 0.5, intelligencePriority: 0.9 },
      tools: [tool],
      toolChoice: { mode: "auto" },
    },
    results: [
      { role: "assistant", content: { type: "text", text: "sunny" }, model: "m", stopReason: "endTurn" },
      { role: "assistant", content: [{ type: "tool_use", id: "u2", name: "weather", input: {} }], model: "m", stopReason: "toolUse" },
      { task },
    ],
  },
  "elicitation/create": {
    params: {
      mode: "form",
      message: "Who?",
      requestedSchema: {
        type: "object",
        properties: {
          name: { type: "string", title: "Name", minLength: 1, maxLength: 9, format: "email", default: "a@b.c" },
          age: { type: "integer", minimum: 0, maximum: 150, default: 3 },
          ok: { type: "boolean", default: true },
          color: { type: "string", enum: ["r", "g"], default: "r" },
          size: { type: "string", oneOf: [{ const: "s", title: "Small" }], default: "s" },
          tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, minItems: 1, maxItems: 2, default: ["a"] },
          pets: { type: "array", items: { anyOf: [{ const: "cat", title: "Cat" }] }, default: ["cat"] },
          legacy: { type: "string", enum: ["x"], enumNames: ["Ex"] },
        },
        required: ["name"],
      },
    },
    results: [{ action: "accept", content: { name: "a", age: 3, ok: true, tags: ["a"] } }, { action: "decline" }, { action: "cancel" }],
  },
  "roots/list": { params: {}, results: [{ roots: [{ uri: "file:///home", name: "home" }] }] },
  "tasks/get": { params: { taskId: "t" }, results: [{ ...task }] },
  "tasks/result": { params: { taskId: "t" }, results: [{ role: "assistant" }] },
  "tasks/list": { params: undefined, results: [{ tasks: [] }] },
  "tasks/cancel": { params: { taskId: "t" }, results: [{ ...task, status: "cancelled" }] },
};

/** URL-mode elicitation params (the second shape of `elicitation/create`). */
export const urlElicitation: ServerRequestMap["elicitation/create"]["params"] = {
  mode: "url",
  message: "Sign in",
  elicitationId: "e1",
  url: "https://example.com/auth",
};

/** Every client notification. */
export const clientNotifications: NotificationExamples<ClientNotificationMap> = {
  "notifications/initialized": [undefined, {}],
  "notifications/cancelled": [{ requestId: 3, reason: "user" }, { requestId: "x" }],
  "notifications/progress": [{ progressToken: "p", progress: 1, total: 2, message: "half" }],
  "notifications/roots/list_changed": [undefined],
  "notifications/tasks/status": [{ ...task, status: "completed" }],
};

/** Every server notification. */
export const serverNotifications: NotificationExamples<ServerNotificationMap> = {
  "notifications/cancelled": [{ requestId: 1 }],
  "notifications/progress": [{ progressToken: 7, progress: 0.5 }],
  "notifications/message": [{ level: "error", logger: "db", data: { a: 1 } }, { level: "debug", data: "x" }],
  "notifications/tools/list_changed": [undefined],
  "notifications/resources/list_changed": [{}],
  "notifications/resources/updated": [{ uri: "file:///a" }],
  "notifications/prompts/list_changed": [undefined],
  "notifications/elicitation/complete": [{ elicitationId: "e1" }],
  "notifications/tasks/status": [{ ...task, status: "failed" }],
};
