/**
 * A server that answers 400 "Bad Request: No valid session ID provided" for a session it no
 * longer knows (the official SDK's example servers and the reference servers built on them do,
 * where the spec says 404) must not leave our client stuck, failing every call while it reports
 * `connected`: the transport re-initializes, as for a 404, and the call goes through. A 400 that
 * is not about the session stays an error.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createSdkScenario } from "../support/sdk-scenario-server";
import { startSdkHttpServer } from "../support/sdk-http";
import { textOf } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("a stale session answered 400", () => {
  it("re-initializes and carries on instead of failing every call", async () => {
    const server = await startSdkHttpServer(createSdkScenario(), { stateless: false, json: false, unknownSession: 400 });
    cleanup.push(() => server.stop());
    const transport = createStreamableHttpClientTransport(server.url);
    const client = createClient({ info: { name: "host", version: "1" } });
    cleanup.push(() => client.close());
    await client.connect(transport);
    expect(textOf(await client.callTool("echo", { text: "before" }))).toBe("before");
    const before = transport.sessionId;

    await server.forgetSessions();
    expect(textOf(await client.callTool("echo", { text: "after" }))).toBe("after");
    expect(transport.sessionId).not.toBe(before);
    expect(client.state).toBe("connected");
  });
});
