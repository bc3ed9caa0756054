/**
 * What a client's core sends again on its own: the state a new session lost (resource
 * subscriptions, the log level) and the tool list after a -32020.
 */
import { RequestMethod } from "@proto/mcp-protocol";
import { serverSupports } from "./capability-check";
import type { Core } from "./core-types";
import type { NotificationParamsRecord } from "./notifications";
import type { Requester } from "./requester";
import type { Session } from "./session";

/** After a reconnect: renew subscriptions and the log level on the new session (failures are warnings). */
export function restore(core: Core, requester: Requester, session: Session): void {
  const again = (method: string, params: NotificationParamsRecord): void => {
    requester.send({ peer: session.peer, server: session.server.info, method, params, options: undefined })
      .catch((error: unknown) => core.logger.warn(`Could not restore "${method}" after reconnecting`, error));
  };
  const { capabilities } = session.server;
  if (serverSupports(capabilities, RequestMethod.ResourcesSubscribe)) for (const uri of core.subscriptions) again(RequestMethod.ResourcesSubscribe, { uri });
  if (core.logLevel !== undefined && serverSupports(capabilities, RequestMethod.LoggingSetLevel)) again(RequestMethod.LoggingSetLevel, { level: core.logLevel });
}

/** Fetches every page of the tool list again (after a -32020, so the transport learns the current header bindings). */
export async function relistTools(core: Core): Promise<void> {
  core.caches.tools.invalidate();
  let cursor: string | undefined;
  for (let page = 0; page < core.maxPages; page++) {
    const result = (await core.send(RequestMethod.ToolsList, cursor === undefined ? undefined : { cursor }, undefined)) as { nextCursor?: unknown };
    if (typeof result.nextCursor !== "string") return;
    cursor = result.nextCursor;
  }
}
