import { describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import type { TaskRecord } from "./store";
import { mayAccess, newTaskId, ownerOf } from "./ownership";

/** Only what `ownerOf` reads of a request context. */
function ctx(principal: string | undefined, protocolVersion: string, session = "s1"): RequestContext {
  return { principal: principal === undefined ? undefined : { subject: principal }, protocolVersion, session: { id: session } } as unknown as RequestContext;
}

const record = (owner: string): TaskRecord => ({ taskId: "t", owner, method: "tools/call", status: "working", createdAt: 0, lastUpdatedAt: 0, ttlMs: null, pollIntervalMs: 1 }) as TaskRecord;

describe("task ids and ownership", () => {
  it("mints 128-bit base64url ids that never repeat and vary in every position", () => {
    const ids = Array.from({ length: 5_000 }, () => newTaskId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // A counter or a clock in the id would leave leading characters constant.
    for (let at = 0; at < 21; at++) expect(new Set(ids.map((id) => id[at])).size).toBeGreaterThan(32);
  });

  it("binds a principal's task to that principal; other tasks are bearer ids", () => {
    const alice = ctx("alice", "2026-07-28");
    const mine = record(ownerOf(alice));
    expect(mayAccess(mine, alice)).toBe(true);
    expect(mayAccess(mine, ctx("bob", "2026-07-28"))).toBe(false);
    expect(mayAccess(mine, ctx(undefined, "2026-07-28"))).toBe(false);
    expect(mayAccess(mine, ctx(undefined, "2025-11-25"))).toBe(false);
    expect(ownerOf(ctx(undefined, "2025-11-25", "s9"))).toBe("session:s9");
    expect(mayAccess(record(ownerOf(ctx(undefined, "2026-07-28"))), ctx("bob", "2026-07-28"))).toBe(true);
  });
});
