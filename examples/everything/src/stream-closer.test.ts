import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamCloser, type StreamCloser } from "./stream-closer";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const CALL = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "test_reconnection", arguments: {} } });

/** A server that tracks each POST and then lets `respond` answer it. */
async function serve(respond: (res: ServerResponse, closer: StreamCloser) => void): Promise<{ url: string; closer: StreamCloser }> {
  const closer = createStreamCloser();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c)).on("end", () => {
      closer.track(req, res, Buffer.concat(chunks));
      respond(res, closer);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, closer };
}

const post = (url: string, body: string, session = "s1"): Promise<Response> => fetch(url, { method: "POST", headers: { "mcp-session-id": session }, body });

describe("createStreamCloser", () => {
  it("ends a reconnection call's SSE response once its priming event is out", async () => {
    let closed: Promise<boolean> | undefined;
    const { url } = await serve((res, closer) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      closed = closer.close("s1", 9);
      res.write("id: e1\nretry: 10\ndata: \n\n");
    });
    const response = await post(url, CALL);
    expect(await response.text()).toBe("id: e1\nretry: 10\ndata: \n\n");
    expect(await closed).toBe(true);
  });

  it("closes nothing for another session, another request, another tool, or an answer without events", async () => {
    const outcomes: boolean[] = [];
    const { url } = await serve((res, closer) => {
      void Promise.all([closer.close("other", 9), closer.close("s1", 10)]).then((r) => outcomes.push(...r));
      void closer.close("s1", 9).then((r) => outcomes.push(r));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    expect(await (await post(url, CALL)).text()).toBe("{}");
    expect(await (await post(url, CALL.replace("test_reconnection", "test_simple_text"))).text()).toBe("{}");
    expect(await (await post(url, "not json")).text()).toBe("{}");
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(outcomes.every((o) => !o)).toBe(true);
    expect(outcomes.length).toBeGreaterThanOrEqual(3);
  });
});
