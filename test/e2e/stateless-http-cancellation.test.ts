/**
 * Guards what a cancelled call costs a stateless Streamable HTTP server. In stateless mode the
 * client's `notifications/cancelled` arrives on its own POST, a new transport that knows nothing
 * of the call, so the handler can only learn of the cancellation when the call's own POST goes
 * away (the handler aborts a POST's requests on disconnect when there is no event store).
 */
import { afterEach, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createClient, type Client } from "@proto/mcp-client";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { createScenarioServer } from "../support/scenario-server";
import { eventually } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function statelessClient(): Promise<{ client: Client; scenario: ReturnType<typeof createScenarioServer> }> {
  const scenario = createScenarioServer("stateless");
  const handler = createNodeHttpHandler({ stateless: true, connect: (t, c) => scenario.server.connect(t, c.initialize ? {} : { initialized: {} }) });
  const listener = createNodeHttpServer(handler);
  const port = await listenLoopback(listener);
  cleanup.push(async () => (await closeHttp(listener), await scenario.server.close()));
  const client = createClient({ protocol: "2025-11-25", info: { name: "stateless-host", version: "1" } });
  cleanup.push(() => client.close());
  await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
  return { client, scenario };
}

describe("stateless Streamable HTTP: cancelling a call", () => {
  it("aborts the handler once the client closes (the call's POST goes away)", async () => {
    const { client, scenario } = await statelessClient();
    const aborter = new AbortController();
    const call = client.callTool("wait", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await eventually(() => scenario.status().waiting === 1, "the wait tool to start");
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
    await client.close();
    await eventually(() => scenario.status().cancelled === 1, "the handler to be aborted by the disconnect");
    expect(scenario.status().waiting).toBe(0);
  });

  // Known gap (reported, issue 10): the client sends notifications/cancelled on a new POST, which
  // a stateless server cannot route, and keeps the call's own POST open, so the handler runs on
  // until the client closes or the tool ends by itself. Aborting that POST once every request it
  // carried was cancelled would let the server see the disconnect. `it.fails` turns red when fixed.
  it.fails("aborts the handler as soon as the call is cancelled, while the client stays connected", async () => {
    const { client, scenario } = await statelessClient();
    const aborter = new AbortController();
    const call = client.callTool("wait", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await eventually(() => scenario.status().waiting === 1, "the wait tool to start");
    aborter.abort();
    await call;
    await eventually(() => scenario.status().cancelled === 1, "the handler to see the cancellation", 5_000);
  });
});
