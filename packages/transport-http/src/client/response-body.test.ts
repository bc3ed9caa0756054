import { describe, expect, it } from "vitest";
import { errorFromResponse, readCappedBytes } from "./response-body";

const url = new URL("http://127.0.0.1:1/mcp");

describe("errorFromResponse", () => {
  it("quotes the JSON-RPC error of the body, with the status and advice", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required", data: 1 } });
    const error = await errorFromResponse("POST", url, new Response(body, { status: 400, statusText: "Bad Request" }));
    expect(error).toMatchObject({ code: "HTTP_STATUS", status: 400, rpcError: { code: -32000, message: "Bad Request: Mcp-Session-Id header is required", data: 1 } });
    expect(error.message).toBe(
      'POST http://127.0.0.1:1/mcp answered 400 Bad Request: JSON-RPC error -32000 "Bad Request: Mcp-Session-Id header is required" (the server refused the request: check the protocol version it supports and the session header)',
    );
  });

  it("quotes the start of a text body, and says nothing of an empty one", async () => {
    const long = await errorFromResponse("GET", url, new Response("x".repeat(1_000), { status: 502 }));
    expect(long.message).toMatch(/answered 502: "x{200}" \(the server failed: retry later or check its logs\)$/);
    const empty = await errorFromResponse("DELETE", url, new Response(null, { status: 418 }));
    expect(empty.message).toBe("DELETE http://127.0.0.1:1/mcp answered 418 (unexpected status)");
    expect(empty.rpcError).toBeUndefined();
  });
});

describe("readCappedBytes", () => {
  it("joins the chunks of a body within the cap", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array([1, 2]));
        controller.enqueue(new Uint8Array([3]));
        controller.close();
      },
    });
    expect([...(await readCappedBytes(new Response(body), 3))]).toEqual([1, 2, 3]);
  });

  it("refuses a body over the cap, declared or streamed", async () => {
    await expect(readCappedBytes(new Response("abcd", { headers: { "content-length": "4" } }), 3)).rejects.toMatchObject({ code: "OVERSIZED" });
    const endless = new ReadableStream<Uint8Array>({ pull: (controller) => controller.enqueue(new Uint8Array(1024)) });
    await expect(readCappedBytes(new Response(endless), 10_000)).rejects.toMatchObject({ code: "OVERSIZED" });
  });
});
