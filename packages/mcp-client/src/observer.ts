/**
 * Observability hooks: one small interface a host implements to feed OpenTelemetry, metrics
 * or logs, so this package depends on none of them. Every hook is optional, is called
 * synchronously, and can never break the client: whatever a hook throws goes to the logger.
 */
import type { Implementation } from "@proto/mcp-protocol";

/** How a request ended. `tool_error` is a `tools/call` answered with `isError: true`. */
export type RequestOutcome = "ok" | "error" | "tool_error" | "timeout" | "aborted" | "closed";

/** One connect attempt, successful or not. */
export interface ConnectEvent {
  /** 1 for the first attempt of a connect, 2 for its first retry, and so on. */
  readonly attempt: number;
  /** True when this connection replaces an earlier one (a reconnect). */
  readonly reconnect: boolean;
  /** True when the attempt was started by a call on a disconnected client (lazy connect). */
  readonly lazy: boolean;
  /** Milliseconds from the transport's creation to `notifications/initialized` (or the failure). */
  readonly durationMs: number;
  readonly outcome: "ok" | "error";
  /** The failure, when `outcome` is `"error"`. */
  readonly error?: unknown;
  /** The server, when connected. */
  readonly serverInfo?: Implementation;
  /** The negotiated protocol version, when connected. */
  readonly protocolVersion?: string;
}

/** A request that is starting. */
export interface RequestStartEvent {
  /** The MCP method, e.g. `tools/call`. */
  readonly method: string;
  /** The tool's name, for `tools/call`. */
  readonly tool?: string;
  /** The server, when connected. */
  readonly serverInfo?: Implementation;
}

/** A request that has settled. */
export interface RequestEndEvent extends RequestStartEvent {
  /** Milliseconds from sending to settling. */
  readonly durationMs: number;
  readonly outcome: RequestOutcome;
  /** The error, for every outcome but `ok` and `tool_error`. */
  readonly error?: unknown;
}

/** A notification received from (`in`) or sent to (`out`) the server. */
export interface NotificationEvent {
  readonly direction: "in" | "out";
  readonly method: string;
}

/**
 * Hooks called by the client. Pass one as the `observer` option.
 *
 * `request` is called when a request starts; if it returns a function, that function is
 * called exactly once when the request settles. This lets a tracer open a span at the start
 * and end it with the outcome, and lets a metrics hook just count at the end.
 */
export interface ClientObserver {
  /** After each connect attempt. */
  connect?(event: ConnectEvent): void;
  /** When a request starts; may return the function to call when it settles. */
  request?(event: RequestStartEvent): ((event: RequestEndEvent) => void) | void;
  /** For each notification received or sent. */
  notification?(event: NotificationEvent): void;
}

/** Calls a hook, sending what it throws to `report`; returns what it returned. */
export function safeCall<A, R>(hook: ((arg: A) => R) | undefined, arg: A, report: (error: unknown) => void): R | undefined {
  if (hook === undefined) return undefined;
  try {
    return hook(arg);
  } catch (error) {
    report(error);
    return undefined;
  }
}
