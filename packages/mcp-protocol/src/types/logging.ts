/** Logging (MCP 2025-11-25, server/utilities/logging). */
import type { NotificationParams, RequestParams } from "./base";

/** Syslog severities (RFC 5424), least severe first in `LOGGING_LEVELS`. */
export type LoggingLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Params of `logging/setLevel`. */
export interface SetLevelRequestParams extends RequestParams {
  /** The least severe level the client wants to receive. */
  readonly level: LoggingLevel;
}

/** Params of `notifications/message`. */
export interface LoggingMessageNotificationParams extends NotificationParams {
  readonly level: LoggingLevel;
  /** The name of the logger that produced the message. */
  readonly logger?: string;
  /** Any JSON-serialisable data. */
  readonly data: unknown;
}
