import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startHttpServer, type RunningHttpServer } from "./http";

/** Sends headers only (the body never comes) and resolves with the status of the answer. */
function headersOnly(port: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.flushHeaders(); // and never write the declared body
  });
}

describe("the everything example's HTTP body reader", () => {
  let running: RunningHttpServer | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("answers 413 at once to a 10 GiB Content-Length with no body (the handler's limit, not a 30 s timeout)", async () => {
    running = await startHttpServer({ port: 0 });
    const answer = await headersOnly(running.port, {
      host: `127.0.0.1:${running.port}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": String(10 * 1024 ** 3),
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: "2.0", id: null, error: { message: expect.stringContaining("over") } });
  }, 5_000);
});
