/**
 * Task ids and who may see a task (MCP 2025-11-25 basic/utilities/tasks "Task Isolation and
 * Access Control"; ext-tasks "Security Considerations"): ids carry 128 random bits; a task made
 * by an authenticated request is bound to its principal, others are bearer ids.
 */
import { isModernProtocolVersion } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { TaskRecord } from "./store";

/** A new task id: base64url of 16 random bytes (128 bits, unguessable). */
export function newTaskId(): string {
  let binary = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The owner key of the caller of `ctx` (see `TaskRecord.owner`). */
export function ownerOf(ctx: RequestContext): string {
  if (ctx.principal !== undefined) return `principal:${ctx.principal.subject}`;
  return isModernProtocolVersion(ctx.protocolVersion) ? "anonymous" : `session:${ctx.session.id}`;
}

/** True when the caller of `ctx` may see `record`: a principal's task is that principal's alone; others are bearer ids. */
export function mayAccess(record: TaskRecord, ctx: RequestContext): boolean {
  return !record.owner.startsWith("principal:") || record.owner === ownerOf(ctx);
}
