import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { HttpOptions, RunningHttpServer } from "./http";
import { startHttpServer } from "./http";

const running: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function start(options: Partial<HttpOptions> = {}): Promise<RunningHttpServer> {
  const server = await startHttpServer({ port: 0, watchedIntervalMs: 0, ...options });
  running.push(server);
  return server;
}

const INITIALIZE = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "browser", version: "1" } } });

function preflight(url: string, origin: string): Promise<Response> {
  return fetch(url, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, mcp-protocol-version" } });
}

function post(url: string, origin: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: { origin, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: INITIALIZE });
}

describe("the everything HTTP endpoint's CORS option", () => {
  it("is off by default: no preflight answer, no Access-Control header", async () => {
    const { url } = await start();
    const answer = await preflight(url, "http://localhost:5173");
    expect(answer.status).toBe(405);
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    const init = await post(url, "http://localhost:5173");
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBeNull();
    await init.body?.cancel();
  });

  it("answers the listed origins, admits them on the loopback bind, and refuses others", async () => {
    const { url } = await start({ cors: { origins: ["https://host.example"] } });
    const answer = await preflight(url, "https://host.example");
    expect(answer.status).toBe(204);
    expect(answer.headers.get("access-control-allow-origin")).toBe("https://host.example");
    expect(answer.headers.get("access-control-allow-headers")).toMatch(/mcp-protocol-version/);
    const init = await post(url, "https://host.example");
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBe("https://host.example");
    expect(init.headers.get("access-control-expose-headers")).toMatch(/mcp-session-id/);
    expect(init.headers.get("mcp-session-id")).toMatch(/.+/);
    await init.body?.cancel();
    const other = await post(url, "https://evil.example");
    expect(other.status).toBe(403);
    await other.body?.cancel();
  });

  it('with origins "*" answers any origin the loopback Origin rule admits', async () => {
    const { url } = await start({ cors: { origins: "*" } });
    const init = await post(url, "http://127.0.0.1:9");
    expect(init.headers.get("access-control-allow-origin")).toBe("*");
    await init.body?.cancel();
    const remote = await post(url, "https://evil.example");
    expect(remote.status).toBe(403);
    await remote.body?.cancel();
  });
});

/** Sends the headers of a POST (and `body` when given), resolving with the whole answer; the request is then destroyed. */
function upload(port: number, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers: { host: `127.0.0.1:${port}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, text });
        req.destroy();
      });
    });
    req.on("error", reject);
    if (body === undefined) req.flushHeaders(); // the declared body never comes
    else req.end(body);
  });
}

describe("the everything HTTP endpoint's body reader (the handler's limits)", () => {
  it("answers a 10 GiB Content-Length with no body 413 at once, without waiting for the body", async () => {
    const { port } = await start();
    const answer = await upload(port, { "content-length": String(10 * 1024 ** 3) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("maxMessageBytes") } });
  });

  it("lets a client that uploads a 5 MiB body read its 413, then serves the next request", async () => {
    const { port } = await start();
    for (let i = 0; i < 3; i += 1) {
      const big = await upload(port, {}, Buffer.alloc(5 * 1024 * 1024, 0x78));
      expect(big.status).toBe(413);
    }
    const init = await upload(port, {}, Buffer.from(INITIALIZE));
    expect(init.status).toBe(200);
  });
});
