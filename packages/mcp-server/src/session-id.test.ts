import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, initializeRaw } from "./test-helpers";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function make(): Server {
  server = createServer({ name: "ids", version: "1" });
  server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ctx.session.id);
  return server;
}

describe("ServerSession.id", () => {
  it("is a random UUID when neither connect nor the transport names the session", async () => {
    const client = await connectRaw(make());
    await initializeRaw(client);
    expect(client.session.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("adopts the transport's session id from the initialize exchange", async () => {
    const client = await connectRaw(make(), { sessionId: "transport-session-7" });
    await initializeRaw(client);
    expect(client.session.id).toBe("transport-session-7");
    expect(await client.call(2, "tools/call", { name: "whoami", arguments: {} })).toMatchObject({ result: { content: [{ type: "text", text: "transport-session-7" }] } });
  });

  it("keeps the id given to connect, whatever the frames say", async () => {
    const client = await connectRaw(make(), { sessionId: "from-frames" }, { sessionId: "from-connect" });
    expect(client.session.id).toBe("from-connect");
    await initializeRaw(client);
    expect(client.session.id).toBe("from-connect");
    expect(server.sessions().map((s) => s.id)).toEqual(["from-connect"]);
  });
});
