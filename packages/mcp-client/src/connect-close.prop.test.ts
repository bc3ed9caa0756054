import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Transport, TransportSink } from "@proto/jsonrpc";
import { createClient } from "./client";
import { isMcpClientError } from "./errors";
import { createScriptedServer } from "./fixtures/scripted-server";

/** The client's end of the pair, with every delivery to the client released by the scheduler. */
function scheduled(transport: Transport, s: fc.Scheduler): Transport {
  return {
    start: (sink: TransportSink) =>
      transport.start({
        payload: (payload, exchange) => void s.schedule(Promise.resolve("deliver"), "to client").then(() => sink.payload(payload, exchange)),
        error: (error) => sink.error(error),
        closed: (reason) => void s.schedule(Promise.resolve("closed"), "closed").then(() => sink.closed(reason)),
      }),
    send: (payload) => s.schedule(Promise.resolve("send"), "from client").then(() => transport.send(payload)),
    close: (reason) => transport.close(reason),
  };
}

describe("client: close() racing connect()", () => {
  it("ends closed, with no live server session and connect() settled, whatever the order", async () => {
    await fc.assert(
      // close() comes from a scheduled task, or from inside the handshake's last step (the
      // observer's connect event), between the server's answer and the client adopting it
      fc.asyncProperty(fc.scheduler(), fc.constantFrom("scheduled", "observer"), async (s, from) => {
        const server = await createScriptedServer({ handlers: { initialize: async (params) => {
          await s.schedule(Promise.resolve("initialize answered"), "server");
          return { protocolVersion: (params as { protocolVersion: string }).protocolVersion, capabilities: {}, serverInfo: { name: "s", version: "1" } };
        } } });
        let serverClosed = false;
        void server.peer.closed.then(() => (serverClosed = true));
        let closing: Promise<void> | undefined;
        const client = createClient({
          info: { name: "t", version: "1" },
          connectTimeoutMs: 60_000,
          observer: { connect: () => void (from === "observer" && (closing ??= client.close())) },
        });
        const connecting = client.connect(scheduled(server.transport, s)).then(
          () => "connected",
          (error: unknown) => (isMcpClientError(error, "CLIENT_CLOSED") ? "closed" : `unexpected ${String(error)}`),
        );
        if (from === "scheduled") closing = s.schedule(Promise.resolve("close()"), "close()").then(() => client.close());
        const outcome = await s.waitFor(connecting);
        await s.waitAll();
        await closing;
        expect(["connected", "closed"]).toContain(outcome);
        expect(client.state).toBe("closed");
        expect(serverClosed).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
