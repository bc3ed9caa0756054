/** The registry state `createApps` owns and its extension reads. */
import type { Logger } from "@proto/jsonrpc";
import type { ServerSession } from "@proto/mcp-server";
import { UI_EXTENSION_ID } from "./constants";
import type { LinkReport } from "./links";
import type { ToolUi } from "./tool-meta";

/** Views, tool links and options of one `createApps`. */
export interface AppsState {
  /** Registered views by URI; the value identifies the registration (for handle removal). */
  readonly views: Map<string, unknown>;
  /** UI metadata of tools by name, from `apps.tool()` and from every tool decorated so far. */
  readonly links: Map<string, ToolUi>;
  readonly serve: "negotiated" | "always";
  readonly appOnlyTools: "list" | "hide";
  readonly logger: Logger;
  /** Logs `message` once per `key`. */
  warnOnce(key: string, message: string, detail?: unknown): void;
  /** Link report of the tools the server serves now. */
  report(): LinkReport;
}

/** True when `session` gets UI metadata and views. */
export function isServed(state: AppsState, session: ServerSession): boolean {
  return state.serve === "always" || session.extension(UI_EXTENSION_ID) !== undefined;
}
