/**
 * Test support (not exported): connects the official SDK client to one of our servers
 * over the in-memory SDK bridge.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ExchangeInfo } from "@proto/jsonrpc";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import type { Server } from "./server-types";
import type { ServerSession } from "./session-types";

/** An SDK client connected to `server`, and our side's session. */
export async function connectSdkClient(
  server: Server,
  options: { info?: ExchangeInfo; capabilities?: Record<string, unknown>; protocolVersion?: string } = {},
): Promise<{ client: Client; session: ServerSession }> {
  const bridge = createSdkBridge(options.info === undefined ? {} : { info: options.info });
  const session = await server.connect(bridge.ours);
  const client = new Client({ name: "sdk-test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  await client.connect(bridge.sdk);
  return { client, session };
}
