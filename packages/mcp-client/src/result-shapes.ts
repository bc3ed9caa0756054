/**
 * Checks that what a server answered has the shape its method requires, so a broken or
 * hostile server gives a clear `INVALID_RESULT` error instead of a crash further on.
 * Only what the client relies on is checked; extra fields pass through untouched.
 */
import { INPUT_REQUIRED_METHODS, ResultType, TASK_RESULT_TYPE } from "@proto/mcp-protocol";
import { ClientFaultCode, McpClientError } from "./errors";

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

const MRTR_METHODS: ReadonlySet<string> = new Set(INPUT_REQUIRED_METHODS);


function invalid(method: string, problem: string, result: unknown): McpClientError {
  return new McpClientError(ClientFaultCode.InvalidResult, `The server's "${method}" result is malformed: ${problem}`, { detail: result });
}

/**
 * The 2026-07-28 `resultType` rule: `complete` or absent passes, `input_required` only where MRTR
 * is allowed, `task` only on `tools/call` (its shape is checked where tasks are read), anything else is invalid.
 */
function checkResultType(method: string, result: Record<string, unknown>): boolean {
  const type = result.resultType;
  if (type === undefined || type === ResultType.Complete) return false;
  if (type === TASK_RESULT_TYPE && method === "tools/call") return true;
  if (type !== ResultType.InputRequired) throw invalid(method, `unknown resultType ${JSON.stringify(type)}`, result);
  if (!MRTR_METHODS.has(method)) throw invalid(method, `resultType "input_required" is allowed only on ${INPUT_REQUIRED_METHODS.join(", ")}`, result);
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && (typeof inputRequests !== "object" || inputRequests === null || Array.isArray(inputRequests))) throw invalid(method, `"inputRequests" must be an object`, result);
  if (requestState !== undefined && typeof requestState !== "string") throw invalid(method, `"requestState" must be a string`, result);
  if (inputRequests === undefined && requestState === undefined) throw invalid(method, "an input_required result needs inputRequests or requestState", result);
  return true;
}

/**
 * Returns `result` when it has the shape `method` requires; throws `INVALID_RESULT` otherwise.
 * `modern` applies the 2026-07-28 `resultType` rule first; an `input_required` result is returned as is.
 */
export function checkResult(method: string, result: unknown, modern = false): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    // `ping`, `subscribe` and friends answer `{}`; a few servers answer null, which we accept there.
    if (result === null && CHECKS[method] === undefined) return {};
    throw new McpClientError(ClientFaultCode.InvalidResult, `The server answered "${method}" with ${result === null ? "null" : typeof result}; an object is required`, { detail: result });
  }
  if (modern && checkResultType(method, result as Record<string, unknown>)) return result;
  const problem = CHECKS[method]?.(result as Record<string, unknown>);
  if (problem !== undefined) throw invalid(method, problem, result);
  return result;
}
