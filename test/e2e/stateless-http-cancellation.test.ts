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
  // The 2025-11-25 wire: the cancellation travels as a notification (2026-07-28 closes the stream by itself).
  const client = createClient({ info: { name: "stateless-host", version: "1" }, protocol: "2025-11-25" });
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

  // The notifications/cancelled the client sends arrives on a POST of its own, which a stateless
  // server cannot route: the client also closes the call's own POST once every request it carried
  // was cancelled, so the server sees the disconnect and aborts the handler at once.
  it("aborts the handler as soon as the call is cancelled, while the client stays connected", async () => {
    const { client, scenario } = await statelessClient();
    const aborter = new AbortController();
    const call = client.callTool("wait", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await eventually(() => scenario.status().waiting === 1, "the wait tool to start");
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
    await eventually(() => scenario.status().cancelled === 1, "the handler to see the cancellation");
    expect(scenario.status().waiting).toBe(0);
    expect(client.state).toBe("connected");
    await expect(client.ping()).resolves.toBeUndefined();
  });
});
