/**
 * Which server capability each client request needs (MCP 2025-11-25, basic/lifecycle
 * "Capability Negotiation"), checked before sending so a missing feature is a clear local
 * error instead of a -32601 from the server.
 */
import type { ServerCapabilities } from "@proto/mcp-protocol";
import { ClientFaultCode, McpClientError } from "./errors";

const NEEDS: { readonly [method: string]: readonly string[] } = {
  "tools/list": ["tools"],
  "tools/call": ["tools"],
  "resources/list": ["resources"],
  "resources/templates/list": ["resources"],
  "resources/read": ["resources"],
  "resources/subscribe": ["resources", "subscribe"],
  "resources/unsubscribe": ["resources", "subscribe"],
  "prompts/list": ["prompts"],
  "prompts/get": ["prompts"],
  "completion/complete": ["completions"],
  "logging/setLevel": ["logging"],
  "tasks/get": ["tasks"],
  "tasks/result": ["tasks"],
  "tasks/list": ["tasks", "list"],
  "tasks/cancel": ["tasks", "cancel"],
  "tasks/update": ["extensions", "io.modelcontextprotocol/tasks"],
};

/** On the 2026-07-28 wire the tasks extension stands in for the 2025-11-25 `tasks` capability. */
const EXTENSION_TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/cancel"]);

function declared(capabilities: ServerCapabilities, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== "object" || node === null) return false;
    node = (node as { readonly [key: string]: unknown })[key];
    if (node === undefined || node === false) return false;
  }
  return true;
}

/** True when the server declared what `method` needs (methods with no requirement always pass). */
export function serverSupports(capabilities: ServerCapabilities, method: string): boolean {
  const path = NEEDS[method];
  if (path === undefined) return true;
  return declared(capabilities, path) || (EXTENSION_TASK_METHODS.has(method) && declared(capabilities, NEEDS["tasks/update"] as readonly string[]));
}

/** Throws `CAPABILITY_MISSING` when the server did not declare what `method` needs. */
export function assertServerSupports(capabilities: ServerCapabilities, method: string, server: string): void {
  if (serverSupports(capabilities, method)) return;
  const path = (NEEDS[method] ?? []).join(".");
  throw new McpClientError(
    ClientFaultCode.CapabilityMissing,
    `The server "${server}" did not declare the "${path}" capability, so "${method}" is not available. ` +
      "Check client.server.capabilities first, or pass enforceCapabilities: false for servers that under-declare",
    { detail: { method, capability: path } },
  );
}
