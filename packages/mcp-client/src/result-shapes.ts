/**
 * Checks that what a server answered has the shape its method requires, so a broken or
 * hostile server gives a clear `INVALID_RESULT` error instead of a crash further on.
 * Only what the client relies on is checked; extra fields pass through untouched.
 */
import { ClientErrorCode, McpClientError } from "./errors";

type Check = (result: Record<string, unknown>) => string | undefined;

const isArray = (key: string): Check => (r) => (Array.isArray(r[key]) ? undefined : `"${key}" must be an array`);
const optionalString = (key: string): Check => (r) =>
  r[key] === undefined || typeof r[key] === "string" ? undefined : `"${key}" must be a string when present`;
const all = (...checks: Check[]): Check => (r) => {
  for (const check of checks) {
    const problem = check(r);
    if (problem !== undefined) return problem;
  }
  return undefined;
};
const list = (key: string): Check => all(isArray(key), optionalString("nextCursor"));

const CHECKS: { readonly [method: string]: Check } = {
  initialize: all(
    (r) => (typeof r.protocolVersion === "string" ? undefined : `"protocolVersion" must be a string`),
    (r) => (typeof r.capabilities === "object" && r.capabilities !== null && !Array.isArray(r.capabilities) ? undefined : `"capabilities" must be an object`),
    (r) => (typeof r.serverInfo === "object" && r.serverInfo !== null ? undefined : `"serverInfo" must be an object`),
  ),
  "server/discover": all(isArray("supportedVersions"), (r) => (typeof r.capabilities === "object" && r.capabilities !== null ? undefined : `"capabilities" must be an object`)),
  "tools/list": list("tools"),
  "tools/call": (r) => (Array.isArray(r.content) || typeof r.task === "object" ? undefined : `"content" must be an array`),
  "resources/list": list("resources"),
  "resources/templates/list": list("resourceTemplates"),
  "resources/read": isArray("contents"),
  "prompts/list": list("prompts"),
  "prompts/get": isArray("messages"),
  "completion/complete": (r) => {
    const completion = r.completion as { values?: unknown } | undefined;
    return typeof completion === "object" && completion !== null && Array.isArray(completion.values) ? undefined : `"completion.values" must be an array`;
  },
};

/** Returns `result` when it has the shape `method` requires; throws `INVALID_RESULT` otherwise. */
export function checkResult(method: string, result: unknown): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    // `ping`, `subscribe` and friends answer `{}`; a few servers answer null, which we accept there.
    if (result === null && CHECKS[method] === undefined) return {};
    throw new McpClientError(ClientErrorCode.InvalidResult, `The server answered "${method}" with ${result === null ? "null" : typeof result}; an object is required`, { detail: result });
  }
  const problem = CHECKS[method]?.(result as Record<string, unknown>);
  if (problem !== undefined) {
    throw new McpClientError(ClientErrorCode.InvalidResult, `The server's "${method}" result is malformed: ${problem}`, { detail: result });
  }
  return result;
}
