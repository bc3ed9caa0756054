/**
 * Logging (MCP 2025-11-25, server/utilities/logging): `logging/setLevel` per session, and
 * `ctx.log(level, data, logger?)`, which sends `notifications/message` only when the level
 * is at or above the one the session asked for. Sessions never share a level.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { LOGGING_LEVELS, NotificationMethod, RequestMethod } from "@proto/mcp-protocol";
import type { LoggingLevel, LoggingMessageNotificationParams } from "@proto/mcp-protocol";
import type { Feature } from "../feature";
import type { ServerSession } from "../session-types";

/** Options of the logging feature (server option `logging`). */
export interface LoggingOptions {
  /**
   * The level a session gets before it sends `logging/setLevel` (the spec lets the server
   * choose). Default `"info"`: debug messages only for clients that ask for them.
   */
  readonly defaultLevel?: LoggingLevel;
}

/** A session's logging state. */
export interface LoggingState {
  /** Index in `LOGGING_LEVELS` of the least severe level sent. */
  threshold: number;
}

/** Sends log messages outside of a request (a session's background work, or every session). */
export interface LoggingApi {
  /** Sends `notifications/message` to `session` when `level` is at or above its level. Resolves once sent or skipped; never rejects. */
  log(session: ServerSession, level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Sends the message to every initialized session whose level lets it through. */
  broadcast(level: LoggingLevel, data: unknown, logger?: string): void;
}

/** True when `value` is one of the eight syslog levels MCP uses. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && (LOGGING_LEVELS as readonly string[]).includes(value);
}

function severity(level: unknown, where: string): number {
  if (!isLoggingLevel(level)) {
    throw new TypeError(`${where}: level ${JSON.stringify(level)} is not one of ${LOGGING_LEVELS.join(", ")}`);
  }
  return LOGGING_LEVELS.indexOf(level);
}

/** The params of one `notifications/message`. */
export function logMessage(level: LoggingLevel, data: unknown, logger?: string): LoggingMessageNotificationParams {
  if (logger !== undefined && typeof logger !== "string") throw new TypeError("log(): logger must be a string when given");
  return logger === undefined ? { level, data } : { level, logger, data };
}

/** What `createLogging` needs from the server. */
export interface LoggingHost {
  readonly logger: Logger;
  sessions(): Iterable<ServerSession>;
}

/** Creates the logging feature and its API. */
export function createLogging(host: LoggingHost, options: LoggingOptions = {}): { feature: Feature<LoggingState>; api: LoggingApi } {
  const initial = severity(options.defaultLevel ?? "info", "createServer option logLevel");
  const states = new WeakMap<ServerSession, LoggingState>();
  const warn = (error: unknown): void => host.logger.warn("a log message could not be sent", error);

  const send = (notify: (m: string, p: JsonRpcParams) => Promise<void>, state: LoggingState, level: LoggingLevel, data: unknown, logger?: string): Promise<void> => {
    if (severity(level, "log()") < state.threshold) return Promise.resolve();
    return notify(NotificationMethod.Message, logMessage(level, data, logger) as unknown as JsonRpcParams).catch(warn);
  };

  const feature: Feature<LoggingState> = {
    name: "logging",
    capabilities: () => ({ logging: {} }),
    createState(session) {
      const state = { threshold: initial };
      states.set(session, state);
      return state;
    },
    snapshot: (state) => LOGGING_LEVELS[state.threshold],
    restore(state, value) {
      if (!isLoggingLevel(value)) throw new TypeError(`a shared log level must be one of ${LOGGING_LEVELS.join(", ")}, got ${JSON.stringify(value)}`);
      state.threshold = LOGGING_LEVELS.indexOf(value);
    },
    requests: {
      [RequestMethod.LoggingSetLevel](params, _ctx, state) {
        const level = (params as { level?: unknown } | undefined)?.level;
        if (!isLoggingLevel(level)) {
          throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid log level ${JSON.stringify(level)}: use one of ${LOGGING_LEVELS.join(", ")}`);
        }
        state.threshold = LOGGING_LEVELS.indexOf(level);
        return {};
      },
    },
    context: {
      log: (ctx, state) => (level, data, logger) => send((m, p) => ctx.notify(m, p), state, level, data, logger),
    },
  };

  const api: LoggingApi = {
    log(session, level, data, logger) {
      const state = states.get(session);
      if (state === undefined) return Promise.resolve();
      return send((m, p) => session.notify(m, p), state, level, data, logger);
    },
    broadcast(level, data, logger) {
      severity(level, "broadcast()");
      for (const session of host.sessions()) if (session.initialized) void api.log(session, level, data, logger);
    },
  };
  return { feature, api };
}
