/**
 * Form-mode elicitation answers: schema defaults filled in on request, and the content
 * checked against the server's `requestedSchema` before it leaves the client (MCP 2025-11-25,
 * client/elicitation "Form Mode").
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { ElicitRequestFormParams, ElicitResult } from "@proto/mcp-protocol";
import type { SchemaValidator } from "./schema-validation";

type Content = NonNullable<ElicitResult["content"]>;

/** Returns `content` with the `default` of every schema property it lacks. */
export function applyElicitationDefaults(schema: ElicitRequestFormParams["requestedSchema"], content: Content | undefined): Content {
  const filled: { [name: string]: Content[string] } = { ...content };
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const fallback = (property as { default?: unknown }).default;
    if (filled[name] === undefined && fallback !== undefined) filled[name] = fallback as Content[string];
  }
  return filled;
}

/** Checks a form answer, fills defaults when asked, and returns what to send to the server. */
export function finishFormAnswer(params: ElicitRequestFormParams, answer: ElicitResult, applyDefaults: boolean, validator: SchemaValidator): ElicitResult {
  if (typeof answer !== "object" || answer === null || !["accept", "decline", "cancel"].includes(answer.action)) {
    throw new TypeError('An elicitation handler must return { action: "accept" | "decline" | "cancel", content? }');
  }
  if (answer.action !== "accept") {
    const { content: _dropped, ...rest } = answer;
    return rest;
  }
  const content = applyDefaults ? applyElicitationDefaults(params.requestedSchema, answer.content) : answer.content ?? {};
  const verdict = validator.validate(params.requestedSchema, content);
  if (!verdict.ok) {
    throw new TypeError(`The accepted elicitation content does not match the server's requestedSchema: ${verdict.message}`);
  }
  return { ...answer, content };
}

/** Refuses a form request whose schema breaks the spec's restrictions (flat object of primitives). */
export function checkRequestedSchema(params: ElicitRequestFormParams): void {
  const schema = params.requestedSchema as unknown;
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  const valid =
    typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "object" &&
    typeof properties === "object" && properties !== null && !Array.isArray(properties) &&
    Object.values(properties).every((p) => typeof p === "object" && p !== null && ["string", "number", "integer", "boolean", "array"].includes((p as { type?: unknown }).type as string));
  if (!valid) {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "requestedSchema must be an object schema whose properties are primitive fields (string, number, integer, boolean, or an enum array)");
  }
}
