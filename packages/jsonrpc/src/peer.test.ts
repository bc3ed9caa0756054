import { describe, expect, it } from "vitest";
import { createPeer, JsonRpcError, RequestError } from "./index";
import { createMemoryTransportPair } from "./testing";

describe("createPeer over a memory pair", () => {
  it("answers a request and a notification round trip", async () => {
    const [a, b] = createMemoryTransportPair();
    const server = createPeer(a);
    const client = createPeer(b);
    const seen: unknown[] = [];
    server.handle("add", (params) => {
      const [x, y] = params as number[];
      return (x ?? 0) + (y ?? 0);
    });
    server.handleNotification("note", (params) => {
      seen.push(params);
    });
    await server.start();
    await client.start();
    await expect(client.request("add", [2, 3])).resolves.toBe(5);
    await client.notify("note", { a: 1 });
    await expect(client.request("missing")).rejects.toMatchObject({ code: -32601 });
    expect(seen).toEqual([{ a: 1 }]);
    await client.close();
    await expect(server.closed).resolves.toBeUndefined();
    await expect(client.request("add", [1, 1])).rejects.toBeInstanceOf(RequestError);
  });

  it("rejects with the peer's JsonRpcError", async () => {
    const [a, b] = createMemoryTransportPair();
    const server = createPeer(a);
    const client = createPeer(b);
    server.handle("boom", () => {
      throw new JsonRpcError(-32000, "nope", { why: 1 });
    });
    await server.start();
    await client.start();
    const error = await client.request("boom").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32000, message: "nope", data: { why: 1 } });
    await server.close();
  });
});
