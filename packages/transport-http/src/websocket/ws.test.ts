import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPeer } from "@proto/jsonrpc";
import type { ExchangeInfo, JsonRpcPayload, Peer, Transport, TransportError, TransportSink } from "@proto/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { cachedToken } from "../client/http-auth";
import { createWebSocketClientTransport } from "./ws-client";
import { createWebSocketServer } from "./ws-server";
import type { WebSocketServerHandle, WebSocketServerOptions } from "./ws-server";

interface Recorder {
  readonly sink: TransportSink;
  readonly payloads: JsonRpcPayload[];
  readonly errors: TransportError[];
  readonly closed: Promise<Error | undefined>;
  readonly infos: ExchangeInfo[];
}

function recorder(): Recorder {
  const payloads: JsonRpcPayload[] = [];
  const errors: TransportError[] = [];
  const infos: ExchangeInfo[] = [];
  let done: (reason: Error | undefined) => void = () => undefined;
  const closed = new Promise<Error | undefined>((resolve) => (done = resolve));
  return {
    payloads,
    errors,
    infos,
    closed,
    sink: {
      payload: (payload, exchange) => {
        payloads.push(payload);
        infos.push(exchange.info);
      },
      error: (error) => void errors.push(error),
      closed: (reason) => done(reason),
    },
  };
}

let http: Server | undefined;
let handle: WebSocketServerHandle | undefined;
let raw: WebSocketServer | undefined;
const cleanups: (() => Promise<unknown> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await handle?.close();
  handle = undefined;
  for (const socket of raw?.clients ?? []) socket.terminate();
  await new Promise<void>((resolve) => (raw ? raw.close(() => resolve()) : resolve()));
  raw = undefined;
  if (http) {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http!.close(() => resolve()));
  }
  http = undefined;
});

/** Starts an acceptor; every accepted transport is handed to `accepted`. */
async function serve(options: Partial<WebSocketServerOptions> & { accepted?: (t: Transport) => void } = {}): Promise<URL> {
  http = createServer();
  await new Promise<void>((resolve) => http!.listen(0, "127.0.0.1", resolve));
  handle = createWebSocketServer({ server: http, connect: (t) => options.accepted?.(t), ...options });
  return new URL(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

function peerOf(transport: Transport): Peer {
  const peer = createPeer(transport, { requestTimeoutMs: 20_000 });
  cleanups.push(() => peer.close());
  return peer;
}

function rawClient(url: URL, init: { protocols?: string[]; headers?: Record<string, string>; autoPong?: boolean } = {}) {
  const socket = new WebSocket(url, init.protocols ?? ["mcp"], { headers: init.headers, autoPong: init.autoPong ?? true });
  cleanups.push(() => socket.terminate());
  return new Promise<{ socket: WebSocket; status?: number; headers?: Record<string, unknown> }>((resolve, reject) => {
    socket.once("open", () => resolve({ socket }));
    socket.once("unexpected-response", (_req, res) => resolve({ socket, status: res.statusCode, headers: res.headers }));
    socket.once("error", reject);
  });
}

describe("WebSocket transports", () => {
  it("carry requests, notifications and server-to-client requests both ways", async () => {
    let accept: (peer: Peer) => void = () => undefined;
    const accepted = new Promise<Peer>((resolve) => (accept = resolve));
    const url = await serve({
      accepted: (t) => {
        const peer = peerOf(t);
        peer.handle("echo", (params) => params);
        void peer.start().then(() => accept(peer));
      },
    });
    const client = peerOf(createWebSocketClientTransport(url));
    client.handle("roots/list", () => ({ roots: [] }));
    const notes: unknown[] = [];
    client.handleNotification("notifications/message", (params) => void notes.push(params));
    await client.start();
    const server = await accepted;
    expect(await client.request("echo", { a: [1, "two"] })).toEqual({ a: [1, "two"] });
    expect(await server.request("roots/list")).toEqual({ roots: [] });
    await server.notify("notifications/message", { level: "info", data: "hi" });
    await expect.poll(() => notes).toEqual([{ level: "info", data: "hi" }]);
  });

  it("tell the server side who connected: transport, headers and the authenticated principal", async () => {
    const rec = recorder();
    const url = await serve({
      authenticate: (req) => (req.headers.get("authorization") === "Bearer t2" ? { subject: "alice", scopes: ["mcp"], claims: {} } : undefined),
      accepted: (t) => void t.start(rec.sink),
    });
    let loads = 0;
    const client = createWebSocketClientTransport(url, { auth: cachedToken(async () => `t${++loads}`), headers: { "x-tenant": "acme" } });
    await client.start(recorder().sink);
    cleanups.push(() => client.close());
    await client.send({ jsonrpc: "2.0", method: "hello" });
    await expect.poll(() => rec.infos.length).toBe(1);
    expect(loads).toBe(2);
    expect(rec.infos[0]).toMatchObject({ transport: "websocket", principal: { subject: "alice" }, headers: { "x-tenant": "acme" } });
  });

  it("close the connection with 1009 when a message exceeds maxMessageBytes", async () => {
    const rec = recorder();
    const url = await serve({ maxMessageBytes: 1_000, accepted: (t) => void t.start(rec.sink) });
    const client = createWebSocketClientTransport(url);
    const clientRec = recorder();
    await client.start(clientRec.sink);
    await client.send({ jsonrpc: "2.0", method: "big", params: { blob: "x".repeat(5_000) } }).catch(() => undefined);
    const closed = await rec.closed;
    expect(closed?.message).toMatch(/larger than maxMessageBytes \(1000 bytes\).*1009/);
    expect(closed).toMatchObject({ name: "TransportError", code: "OVERSIZED" });
    expect((await clientRec.closed)?.message).toMatch(/code 1009 \(message too big\)/);
    expect(rec.payloads).toEqual([]);
  });

  it("terminate a peer that stops answering pings (server side)", async () => {
    const rec = recorder();
    const url = await serve({ pingIntervalMs: 30, accepted: (t) => void t.start(rec.sink) });
    await rawClient(url, { autoPong: false });
    expect(await rec.closed).toMatchObject({ code: "TIMEOUT", message: expect.stringMatching(/did not answer a ping/) });
  });

  it("terminate a peer that stops answering pings (client side)", async () => {
    raw = new WebSocketServer({ host: "127.0.0.1", port: 0, autoPong: false, handleProtocols: () => "mcp" });
    await new Promise<void>((resolve) => raw!.once("listening", resolve));
    const client = createWebSocketClientTransport(`ws://127.0.0.1:${(raw.address() as AddressInfo).port}/`, { pingIntervalMs: 30 });
    const rec = recorder();
    await client.start(rec.sink);
    expect((await rec.closed)?.message).toMatch(/did not answer a ping/);
  });

  it("refuse binary messages with a clear error and go on", async () => {
    const rec = recorder();
    const url = await serve({ accepted: (t) => void t.start(rec.sink) });
    const { socket } = await rawClient(url);
    socket.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send(JSON.stringify({ jsonrpc: "2.0", method: "after" }));
    await expect.poll(() => rec.payloads.length).toBe(1);
    expect(rec.errors.map((e) => e.code)).toEqual(["BAD_FRAME"]);
    expect(rec.errors[0]?.message).toMatch(/binary WebSocket message/);
    expect(rec.payloads[0]).toEqual({ jsonrpc: "2.0", method: "after" });
  });
});

describe("createWebSocketServer refuses upgrades it must not accept", () => {
  it("a foreign Origin or Host on a loopback bind (DNS rebinding), Origin null", async () => {
    const url = await serve();
    expect((await rawClient(url, { headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect((await rawClient(url, { headers: { origin: "null" } })).status).toBe(403);
    expect((await rawClient(url, { headers: { host: "evil.example" } })).status).toBe(403);
    expect((await rawClient(url, { headers: { origin: "http://localhost:5173" } })).status).toBeUndefined();
  });

  it("no `mcp` subprotocol (400), another path (404), no principal (401 with a challenge), over the cap (503)", async () => {
    const url = await serve({ authenticate: (req) => (req.headers.get("authorization") ? { subject: "a", scopes: [], claims: {} } : undefined), maxConnections: 1 });
    const auth = { authorization: "Bearer x" };
    expect((await rawClient(url, { protocols: ["other"], headers: auth })).status).toBe(400);
    expect((await rawClient(new URL("/elsewhere", url), { headers: auth })).status).toBe(404);
    const anonymous = await rawClient(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers?.["www-authenticate"]).toBe("Bearer");
    expect((await rawClient(url, { headers: auth })).status).toBeUndefined();
    await expect.poll(() => handle?.connections).toBe(1);
    expect((await rawClient(url, { headers: auth })).status).toBe(503);
  });

  it("closes live connections on close()", async () => {
    const url = await serve({ accepted: (t) => void t.start(recorder().sink) });
    const rec = recorder();
    await createWebSocketClientTransport(url).start(rec.sink);
    await handle!.close();
    handle = undefined;
    expect(await rec.closed).toBeUndefined();
  });
});

describe("createWebSocketClientTransport", () => {
  it("explains what went wrong", async () => {
    expect(() => createWebSocketClientTransport("http://127.0.0.1/mcp")).toThrow(/ws: or wss: URL/);
    await expect(createWebSocketClientTransport("ws://127.0.0.1:9/mcp").start(recorder().sink)).rejects.toMatchObject({ code: "NETWORK" });
    const url = await serve({ authenticate: () => undefined });
    await expect(createWebSocketClientTransport(url).start(recorder().sink)).rejects.toThrow(/refused with HTTP 401: pass an `auth` provider/);
  });
});

describe("backpressure", () => {
  it("refuses to queue more than maxBufferedBytes for a peer that does not read", async () => {
    raw = new WebSocketServer({ host: "127.0.0.1", port: 0, handleProtocols: () => "mcp", maxPayload: 1 << 30 });
    raw.on("connection", (socket) => socket.pause());
    await new Promise<void>((resolve) => raw!.once("listening", resolve));
    const client = createWebSocketClientTransport(`ws://127.0.0.1:${(raw.address() as AddressInfo).port}/`, { maxBufferedBytes: 64 * 1024 });
    await client.start(recorder().sink);
    const blob = "x".repeat(256 * 1024);
    let refused: unknown;
    // Sends are not awaited: a write resolves once flushed to the socket, which never happens here.
    for (let i = 0; i < 2_000 && refused === undefined; i++) {
      client.send({ jsonrpc: "2.0", method: "big", params: { i, blob } }).catch((error: unknown) => (refused ??= error));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(refused).toMatchObject({ code: "WRITE_FAILED", message: expect.stringMatching(/peer is not reading/) });
    for (const socket of raw.clients) socket.terminate();
    await client.close();
  });
});
