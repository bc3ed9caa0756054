/**
 * The events a client raises. Register with `client.on(event, listener)`, which returns the
 * function that removes the listener.
 */
import type { ElicitationCompleteNotificationParams, LoggingMessageNotificationParams, ResourceUpdatedNotificationParams } from "@proto/mcp-protocol";
import type { ServerDetails } from "./session";

/** Lifecycle events. */
export interface ConnectionEvents {
  /** The first successful connection. */
  connected: { readonly server: ServerDetails };
  /** A later successful connection, after a drop (the server may have changed: lists were cleared). */
  reconnected: { readonly server: ServerDetails };
  /** One connect attempt failed; `willRetry` says whether another attempt follows. */
  connectFailed: { readonly error: unknown; readonly attempt: number; readonly willRetry: boolean };
  /** The connection ended: `expected` when `close()` ended it, otherwise `reason` says why (when known). */
  disconnected: { readonly reason: Error | undefined; readonly expected: boolean };
}

/** Every event of a client. */
export interface ClientEvents extends ConnectionEvents {
  /** The server's tool list changed; the cached list was dropped. */
  toolsChanged: undefined;
  /** The server's resource list changed; cached resources and templates were dropped. */
  resourcesChanged: undefined;
  /** The server's prompt list changed; the cached list was dropped. */
  promptsChanged: undefined;
  /** A subscribed resource (or one of its sub-resources) changed; read it again. */
  resourceUpdated: ResourceUpdatedNotificationParams;
  /** A log message from the server (`notifications/message`); set the level with `setLoggingLevel`. */
  log: LoggingMessageNotificationParams;
  /** A URL-mode elicitation finished out of band. */
  elicitationComplete: ElicitationCompleteNotificationParams;
}
