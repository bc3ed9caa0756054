/**
 * Progress (MCP 2025-11-25, basic/utilities/progress): `ctx.progress(progress, total?,
 * message?)` sends `notifications/progress` with the request's `_meta.progressToken` when
 * the request carried one, and does nothing otherwise. Progress must increase with every
 * notification: a value not above the last one sent is dropped (and reported once to the
 * server's logger), as is anything after the request was cancelled or answered.
 */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { NotificationMethod } from "@proto/mcp-protocol";
import type { ProgressNotificationParams, ProgressToken } from "@proto/mcp-protocol";
import type { BaseRequestContext } from "../context";
import type { Feature } from "../feature";
import { peerContextOf } from "../session-context";

/** Sends one progress update; resolves once sent or skipped, never rejects for a send failure. */
export type ProgressFunction = (progress: number, total?: number, message?: string) => Promise<void>;

function isToken(value: unknown): value is ProgressToken {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

function check(progress: unknown, total: unknown, message: unknown): void {
  if (typeof progress !== "number" || !Number.isFinite(progress)) {
    throw new TypeError(`progress(): progress must be a finite number, got ${String(progress)}`);
  }
  if (total !== undefined && (typeof total !== "number" || !Number.isFinite(total))) {
    throw new TypeError(`progress(): total must be a finite number when given, got ${String(total)}`);
  }
  if (message !== undefined && typeof message !== "string") throw new TypeError("progress(): message must be a string when given");
}

/** Creates the progress function of one request context. */
export function createProgress(ctx: BaseRequestContext, logger: Logger): ProgressFunction {
  const token = ctx.meta.progressToken;
  let last = -Infinity;
  let warned = false;
  return (progress, total, message) => {
    check(progress, total, message);
    // progress refers to a request in progress: nothing once it was answered (a task's context runs on)
    if (!isToken(token) || peerContextOf(ctx).finished === true || ctx.signal.aborted) return Promise.resolve();
    if (progress <= last) {
      if (!warned) logger.warn(`progress(${progress}) dropped: progress must increase (last sent ${last}) in ${ctx.method}`);
      warned = true;
      return Promise.resolve();
    }
    last = progress;
    const params: { -readonly [K in keyof ProgressNotificationParams]: ProgressNotificationParams[K] } = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    return ctx.notify(NotificationMethod.Progress, params as unknown as JsonRpcParams).catch((error: unknown) => {
      logger.warn("a progress notification could not be sent", error);
    });
  };
}

/** The progress feature: `ctx.progress`, made on first use in a request. */
export function createProgressFeature(logger: Logger): Feature<undefined> {
  return { name: "progress", context: { progress: (ctx) => createProgress(ctx, logger) } };
}
