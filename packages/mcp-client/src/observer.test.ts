import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import type { ClientObserver, NotificationEvent, RequestEndEvent, RequestStartEvent } from "./observer";
import { createClient } from "./client";
import { createScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(observer: ClientObserver, errors: unknown[] = []) {
  const server = await createScriptedServer({
    capabilities: { tools: { listChanged: true } },
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "tools/call": async (params, context) => {
        const name = (params as { name: string }).name;
        const token = (params as { _meta?: { progressToken?: string } })._meta?.progressToken;
        if (name === "progress" && token !== undefined) await context.notify("notifications/progress", { progressToken: token, progress: 1 });
        if (name === "broken") throw new JsonRpcError(-32602, "unknown tool");
        if (name === "hang") return new Promise(() => {});
        return { content: [], isError: name === "failing" };
      },
    },
  });
  const client = createClient({ info: { name: "t", version: "1" }, observer, logger: { warn() {}, error: (_m, d) => errors.push(d) } });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

describe("observer hooks", () => {
  it("sees each request start and settle with method, tool name and outcome", async () => {
    const starts: RequestStartEvent[] = [];
    const ends: RequestEndEvent[] = [];
    const { client } = await setup({
      request(event) {
        starts.push(event);
        return (end) => ends.push(end);
      },
    });
    await client.callTool("ok", {}, { validateOutput: false });
    await client.callTool("failing", {}, { validateOutput: false });
    await client.callTool("broken", {}, { validateOutput: false }).catch(() => {});
    const aborter = new AbortController();
    const hanging = client.callTool("hang", {}, { validateOutput: false, signal: aborter.signal }).catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    aborter.abort();
    await hanging;
    await client.callTool("hang", {}, { validateOutput: false, timeoutMs: 1 }).catch(() => {});
    expect(starts.map((s) => [s.method, s.tool])).toEqual([["tools/call", "ok"], ["tools/call", "failing"], ["tools/call", "broken"], ["tools/call", "hang"], ["tools/call", "hang"]]);
    expect(starts[0]?.serverInfo).toEqual({ name: "scripted", version: "0.0.0" });
    expect(ends.map((e) => e.outcome)).toEqual(["ok", "tool_error", "error", "aborted", "timeout"]);
    expect(ends.every((e) => e.durationMs >= 0)).toBe(true);
    expect(ends[2]?.error).toBeInstanceOf(JsonRpcError);
  });

  it("sees notifications in both directions", async () => {
    const seen: NotificationEvent[] = [];
    const { client, server } = await setup({ notification: (e) => seen.push(e) });
    const changed = new Promise<void>((resolve) => client.on("toolsChanged", () => resolve()));
    await server.peer.notify("notifications/tools/list_changed");
    await changed;
    expect(seen).toEqual([{ direction: "out", method: "notifications/initialized" }, { direction: "in", method: "notifications/tools/list_changed" }]);
  });

  it("a throwing hook is logged and never breaks the client", async () => {
    const errors: unknown[] = [];
    const { client } = await setup({
      request: () => {
        throw new Error("hook broke");
      },
      notification: () => {
        throw new Error("hook broke too");
      },
    }, errors);
    expect((await client.callTool("ok", {}, { validateOutput: false })).content).toEqual([]);
    expect(errors.map((e) => (e as Error).message)).toEqual(expect.arrayContaining(["hook broke"]));
  });
});

describe("request options", () => {
  it("sends a progress token only with a progress callback, merged with caller meta", async () => {
    const { client, server } = await setup({});
    await client.callTool("ok", {}, { validateOutput: false, meta: { "com.example/trace": "t1" } });
    await client.callTool("ok", {}, { validateOutput: false, onProgress: () => {} });
    const calls = server.received.filter((r) => r.method === "tools/call").map((r) => (r.params as { _meta?: unknown })._meta);
    expect(calls[0]).toEqual({ "com.example/trace": "t1" });
    expect(calls[1]).toEqual({ progressToken: expect.any(String) });
  });

  it("refuses nonsense timeouts with a TypeError", async () => {
    const { client } = await setup({});
    await expect(client.ping({ timeoutMs: -5 })).rejects.toThrow(/timeoutMs must be/);
  });

  it("a progress callback that throws is logged; the call goes on", async () => {
    const errors: unknown[] = [];
    const { client, server } = await setup({}, errors);
    const result = await client.callTool("progress", {}, { validateOutput: false, onProgress: () => { throw new Error("bad callback"); } });
    expect(result.content).toEqual([]);
    expect(errors.map((e) => (e as Error).message)).toEqual(["bad callback"]);
    expect(server.received.at(-1)?.method).toBe("tools/call");
  });
});
