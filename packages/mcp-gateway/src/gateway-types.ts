/** The public shape of a gateway: a `Server` plus what only a gateway has. */
import type { Server } from "@proto/mcp-server";
import type { Catalog } from "./catalog";
import type { ChildState } from "./child";

/** One child as `status()` reports it. */
export interface ChildStatus {
  readonly name: string;
  readonly state: ChildState;
  /** Its exposed tool names. */
  readonly tools: readonly string[];
  /** Why its last start failed, or why it failed. */
  readonly error?: string;
}

/** A gateway: serve it like any server; `close()` also stops every child. */
export interface Gateway extends Server {
  /**
   * Starts the shared children (sessions `"shared"`): resolves once the eager ones are up or
   * failed, or after `readyTimeoutMs`, whichever comes first; slower children keep starting
   * and are announced with `list_changed`. Rejects when a `required` child fails to start.
   * Called by the first session when you do not call it.
   */
  start(): Promise<void>;
  /** The shared children's states and exposed tools. */
  status(): readonly ChildStatus[];
  /** The shared routing table (exposed names, renames, warnings). */
  catalog(): Catalog;
  /** Closes every session and stops every child (stdin end, then SIGTERM, then SIGKILL for stdio children). */
  close(): Promise<void>;
}
