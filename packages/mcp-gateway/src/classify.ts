/**
 * Turns what a child request failed with (the client's and the transports' errors) into a
 * `ChildFailure` with a reason and a repair sentence naming the config key to change. Errors
 * are recognised by their stable `name` and `code`, so this module stays runtime-neutral.
 */
import { JsonRpcError, JsonRpcErrorCode } from "@proto/jsonrpc";
import type { ChildFailure, FailureDetail, FailureReason } from "./errors";
import { GatewayFaultCode } from "./errors";

/** Where the failure happened. */
export interface FailureSite {
  readonly child: string;
  readonly method: string;
  readonly tool?: string;
  readonly uri?: string;
  readonly startedAt?: number;
  readonly timeoutMs?: number;
  /** A frame fault (non-JSON, oversized line) the child produced during the request. */
  readonly frameFault?: string;
  /** Restart attempt, when the child is restarting. */
  readonly attempt?: number;
}

interface Coded {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly cause?: unknown;
  readonly message?: unknown;
  readonly status?: unknown;
  readonly exitCode?: unknown;
  readonly signal?: unknown;
  readonly stderrTail?: unknown;
  readonly errno?: unknown;
}

function chain(error: unknown): Coded[] {
  const out: Coded[] = [];
  for (let e = error, i = 0; typeof e === "object" && e !== null && i < 6; e = (e as Coded).cause, i++) out.push(e as Coded);
  return out;
}

function find(errors: Coded[], name: string): Coded | undefined {
  return errors.find((e) => e.name === name);
}

function reasonOf(errors: Coded[], site: FailureSite): FailureReason {
  const http = find(errors, "HttpClientError");
  if (http !== undefined && (http.code === "AUTH" || http.status === 401 || http.status === 403)) return "auth";
  if (site.frameFault !== undefined) return "parse";
  if (http !== undefined && (http.code === "BAD_RESPONSE" || http.code === "OVERSIZED")) return "parse";
  const top = errors[0];
  if (top?.name === "McpClientError" && top.code === "INVALID_RESULT") return "parse";
  if (top?.name === "RequestError" && top.code === "TIMEOUT") return "timeout";
  if (top?.name === "McpClientError" && typeof top.code === "string" && top.code.startsWith("CONNECT")) return "unavailable";
  if (top?.name === "McpClientError" && (top.code === "NOT_CONNECTED" || top.code === "CLIENT_CLOSED")) return "unavailable";
  if (find(errors, "StdioProcessError")?.code === "SPAWN_FAILED" || http?.code === "NETWORK") return "unavailable";
  return "disconnect";
}

function detailOf(errors: Coded[], site: FailureSite): FailureDetail {
  const proc = find(errors, "StdioProcessError");
  const http = find(errors, "HttpClientError");
  const detail: { -readonly [K in keyof FailureDetail]: FailureDetail[K] } = {};
  if (proc !== undefined) {
    if (proc.exitCode !== undefined) detail.exitCode = proc.exitCode as number | null;
    if (proc.signal !== undefined) detail.signal = proc.signal as string | null;
    if (Array.isArray(proc.stderrTail)) detail.stderrTail = (proc.stderrTail as string[]).join("\n").slice(-4096).split("\n");
    if (typeof proc.errno === "string") detail.errno = proc.errno;
  }
  if (typeof http?.status === "number") detail.status = http.status;
  if (site.startedAt !== undefined) detail.elapsedMs = Math.round(performance.now() - site.startedAt);
  if (site.timeoutMs !== undefined) detail.timeoutMs = site.timeoutMs;
  if (site.attempt !== undefined) detail.attempt = site.attempt;
  const last = errors[errors.length - 1];
  if (typeof last?.message === "string") detail.cause = last.message.slice(0, 1000);
  return detail;
}

function repairOf(reason: FailureReason, site: FailureSite, detail: FailureDetail): string {
  const key = `children.${site.child}`;
  switch (reason) {
    case "unavailable":
      return detail.errno !== undefined
        ? `the child could not be started (${detail.errno}): check ${key}.command and PATH`
        : `the child is not reachable or did not finish starting (${detail.cause ?? "no answer"}): check ${key} and that the server runs; the gateway restarts it`;
    case "timeout":
      return `no response or progress within ${String(detail.timeoutMs ?? "the timeout")} ms; the child was sent a cancel: retry, or raise ${key}.timeoutMs`;
    case "parse":
      return `the child wrote something that is not an MCP message to its stdout (${site.frameFault ?? detail.cause ?? "unreadable output"}): it must log to stderr only; fix the server`;
    case "auth":
      return `the child refused the gateway's credentials${detail.status !== undefined ? ` (HTTP ${detail.status})` : ""}: set ${key}.auth or ${key}.headers`;
    case "disconnect": {
      const how = detail.signal ? `was killed by ${detail.signal}` : detail.exitCode !== undefined ? `exited with code ${String(detail.exitCode)}` : "disconnected";
      return `the child ${how}${detail.stderrTail?.length ? ` (stderr: ${detail.stderrTail.slice(-3).join(" | ").slice(0, 300)})` : ""}; the gateway restarts it: retry the call`;
    }
  }
}

/** The messages of an error and its causes, joined: what a person needs to see (a child's stderr tail is in its cause). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (const e of chain(error)) if (typeof e.message === "string" && !parts.some((p) => p.includes(e.message as string))) parts.push(e.message);
  return parts.length > 0 ? parts.join(": ") : String(error);
}

/** The failure a child request ended with; undefined for a child's own JSON-RPC error (passed on as it is). */
export function classifyFailure(error: unknown, site: FailureSite, ui = false): ChildFailure | undefined {
  if (error instanceof JsonRpcError) return undefined;
  const errors = chain(error);
  const reason = reasonOf(errors, site);
  const detail = detailOf(errors, site);
  const code = ui ? GatewayFaultCode.ViewFailed : GatewayFaultCode.ChildFailed;
  return {
    code,
    child: site.child,
    reason,
    method: site.method,
    ...(site.tool === undefined ? {} : { tool: site.tool }),
    ...(site.uri === undefined ? {} : { uri: site.uri }),
    retryable: reason !== "auth" && reason !== "parse",
    detail,
    repair: repairOf(reason, site, detail),
  };
}

/**
 * The answer to a request the child never received because it did not declare the capability
 * (its client refuses with `CAPABILITY_MISSING`, a `resources/subscribe` to a child without
 * `resources.subscribe`): -32601 naming the child, what the child itself would have answered.
 * Undefined for any other error. Nothing failed, so this is no `ChildFailure` (whose repair
 * would say to retry).
 */
export function capabilityRefusal(error: unknown, child: string): JsonRpcError | undefined {
  const top = chain(error)[0] as (Coded & { readonly detail?: { readonly method?: unknown; readonly capability?: unknown } }) | undefined;
  if (top?.name !== "McpClientError" || top.code !== "CAPABILITY_MISSING") return undefined;
  const method = typeof top.detail?.method === "string" ? top.detail.method : "this method";
  const capability = typeof top.detail?.capability === "string" ? top.detail.capability : "its";
  return new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Method not found: child server "${child}" does not serve ${method} (it did not declare the "${capability}" capability)`, { child, method, capability });
}

/** A failure for a child that is not running (failed, disabled, stopped). */
export function unavailableFailure(site: FailureSite, why: string, ui = false): ChildFailure {
  return {
    code: ui ? GatewayFaultCode.ViewFailed : GatewayFaultCode.ChildFailed,
    child: site.child,
    reason: "unavailable",
    method: site.method,
    ...(site.tool === undefined ? {} : { tool: site.tool }),
    ...(site.uri === undefined ? {} : { uri: site.uri }),
    retryable: false,
    detail: { cause: why },
    repair: `${why}: check children.${site.child} (and its stderr), then restart the gateway`,
  };
}
