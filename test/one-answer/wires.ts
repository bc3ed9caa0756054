/**
 * The client ends the property drives, one per transport: each sends raw frames (no client
 * `Peer`, so batches and cancellations go out exactly as planned) and collects every message the
 * server sends back. Stream transports (in-memory, stdio, WebSocket) answer on one connection;
 * Streamable HTTP answers each frame on its POST (stateless, so every POST has its own server peer).
 */
import { spawn } from "node:child_process";
import { createServer as createHttpServer } from "node:http";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { encode } from "@proto/jsonrpc";
import type { JsonRpcMessage, JsonRpcPayload, Transport } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createStreamableHttpHandler } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer, createWebSocketClientTransport, createWebSocketServer } from "@proto/transport-http/node";
import { createStdioServerTransport } from "@proto/transport-stdio/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { serveOn } from "./model";

/** A connection-style client end. */
export interface StreamWire {
  /** Everything the server sent, batches flattened. */
  readonly received: JsonRpcMessage[];
  send(payload: JsonRpcPayload): Promise<void>;
  /** The client goes away now (closes its end, or its writes start failing), answers owed or not. */
  close(): Promise<void>;
  /** Frees everything (server included). */
  stop(): Promise<void>;
}

function collect(received: JsonRpcMessage[], text: string): void {
  const parsed = JSON.parse(text) as JsonRpcMessage | JsonRpcMessage[];
  received.push(...(Array.isArray(parsed) ? parsed : [parsed]));
}

/** Reads newline-delimited JSON from a stream into `received`. */
function readLines(stream: NodeJS.ReadableStream, received: JsonRpcMessage[]): void {
  let buffered = "";
  stream.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      if (line.trim() !== "") collect(received, line);
    }
  });
}

/** The in-memory pair of @proto/jsonrpc/testing (encoded and decoded on the way). */
export async function memoryWire(): Promise<StreamWire> {
  const [client, server] = createMemoryTransportPair();
  const peer = await serveOn(server);
  const received: JsonRpcMessage[] = [];
  await client.start({ payload: (p) => void received.push(...(Array.isArray(p) ? p : [p])), error() {}, closed() {} });
  return { received, send: (p) => client.send(p), close: () => client.close(), stop: () => peer.close() };
}

/**
 * The stdio server transport on a stream pair. `failWrites`: closing makes every later write of the
 * server fail (EPIPE, the reader is gone) instead of ending its input.
 */
export async function stdioWire(failWrites: boolean): Promise<StreamWire> {
  const stdin = new PassThrough();
  const out = new PassThrough();
  let broken = false;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (broken) return done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      out.write(chunk, () => done());
    },
  });
  stdout.on("error", () => undefined);
  const received: JsonRpcMessage[] = [];
  readLines(out, received);
  const peer = await serveOn(createStdioServerTransport({ stdin, stdout }));
  return {
    received,
    send: async (p) => void stdin.write(`${encode(p)}\n`),
    close: async () => {
      if (failWrites) broken = true;
      else stdin.end();
    },
    stop: async () => {
      await peer.close();
      stdin.destroy();
    },
  };
}

const CHILD = fileURLToPath(new URL("./stdio-child.fixture.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The test server in a real child process, on its stdin/stdout (serveOn over the stdio server transport). */
export async function childWire(): Promise<StreamWire> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD], { cwd: ROOT, env: { ...process.env, TSX_TSCONFIG_PATH: `${ROOT}tsconfig.json` }, stdio: ["pipe", "pipe", "inherit"] });
  const received: JsonRpcMessage[] = [];
  readLines(child.stdout, received);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    received,
    send: async (p) => void child.stdin.write(`${encode(p)}\n`),
    close: async () => void child.stdin.end(),
    stop: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

/** The WebSocket acceptor on a loopback node:http server; the WebSocket client transport sends the raw frames. */
export async function webSocketWire(): Promise<StreamWire> {
  const http = createHttpServer();
  const port = await listenLoopback(http);
  const acceptor = createWebSocketServer({ server: http, connect: (t: Transport) => serveOn(t) });
  const client = createWebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`);
  const received: JsonRpcMessage[] = [];
  await client.start({ payload: (p) => void received.push(...(Array.isArray(p) ? p : [p])), error() {}, closed() {} });
  return {
    received,
    send: (p) => client.send(p),
    close: () => client.close(),
    stop: async () => {
      await client.close();
      await acceptor.close();
      await closeHttp(http);
    },
  };
}

/** Answers of one POST: none (202), a JSON body, or the `data` of SSE events. */
async function answersOf(response: Response): Promise<JsonRpcMessage[]> {
  const received: JsonRpcMessage[] = [];
  const text = await response.text();
  if (text.trim() === "") return received;
  if ((response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    for (const block of text.split("\n\n")) {
      const data = block.split("\n").filter((line) => line.startsWith("data:")).map((line) => line.slice(5).trimStart()).join("\n");
      if (data !== "") collect(received, data);
    }
  } else collect(received, text);
  return received;
}

/** Headers of every POST: 2025-03-26 is the revision with batches. */
const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-03-26" };

/** A POST-per-frame client end: `post` answers with the frame's answers; `abort` leaves before reading them. */
export interface PostWire {
  post(payload: JsonRpcPayload, abort: boolean): Promise<JsonRpcMessage[]>;
  stop(): Promise<void>;
}

/** The Web `fetch` handler, stateless, in the given answer mode. */
export function webHandlerWire(responseMode: "json" | "sse" | "auto"): PostWire {
  const handler = createStreamableHttpHandler({ stateless: true, responseMode, connect: (t) => serveOn(t) });
  return {
    async post(payload, abort) {
      const aborter = new AbortController();
      const request = new Request("http://127.0.0.1/mcp", { method: "POST", headers: POST_HEADERS, body: encode(payload), signal: aborter.signal });
      const answer = handler(request);
      if (abort) aborter.abort();
      const response = await answer;
      if (!abort) return answersOf(response);
      // the client left: the handler must still settle and end its body, but nobody reads the answer
      await response.text().catch(() => undefined);
      return [];
    },
    stop: () => handler.close(),
  };
}

/** The Node adapter on a loopback server, stateless, in the given answer mode; `fetch` as the client. */
export async function nodeAdapterWire(responseMode: "json" | "sse" | "auto"): Promise<PostWire> {
  const handler = createNodeHttpHandler({ stateless: true, responseMode, connect: (t) => serveOn(t) });
  const http = createNodeHttpServer(handler);
  const url = `http://127.0.0.1:${await listenLoopback(http)}/mcp`;
  return {
    async post(payload, abort) {
      const aborter = new AbortController();
      const answer = fetch(url, { method: "POST", headers: POST_HEADERS, body: encode(payload), signal: aborter.signal });
      if (abort) {
        // the client left: nobody reads the answer
        aborter.abort();
        await answer.then((response) => response.text()).catch(() => undefined);
        return [];
      }
      return answersOf(await answer);
    },
    async stop() {
      await handler.close();
      await closeHttp(http);
    },
  };
}
