/**
 * Test support (not exported): connects the official SDK client to one of our servers
 * over the in-memory SDK bridge.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { ExchangeInfo, JsonRpcParams, JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import type { Server } from "./server-types";
import type { ConnectOptions, ServerSession } from "./session-types";

/** An SDK client connected to `server`, and our side's session. */
export async function connectSdkClient(
  server: Server,
  options: { info?: ExchangeInfo; capabilities?: Record<string, unknown>; protocolVersion?: string } = {},
): Promise<{ client: Client; session: ServerSession }> {
  const bridge = createSdkBridge(options.info === undefined ? {} : { info: options.info });
  const session = await server.connect(bridge.ours);
  const client = new Client({ name: "sdk-test", version: "1.0.0" }, { capabilities: options.capabilities ?? {} });
  await client.connect(bridge.sdk);
  return { client, session };
}

/** A raw JSON-RPC client: sends payloads as given and collects every frame the server sends. */
export interface RawClient {
  send(payload: JsonRpcPayload): Promise<void>;
  /** Sends a request and resolves with the response carrying its id. */
  call(id: number | string, method: string, params?: unknown): Promise<JsonRpcResponse>;
  /** Resolves with the next frame matching `match` (already received ones included, each consumed once). */
  next(match: (payload: JsonRpcPayload) => boolean): Promise<JsonRpcPayload>;
  /** Every frame received so far. */
  readonly received: JsonRpcPayload[];
  readonly session: ServerSession;
  close(): Promise<void>;
}

/** Connects a raw client to `server` over a memory transport pair. */
export async function connectRaw(server: Server, info?: Partial<ExchangeInfo>, connectOptions?: ConnectOptions): Promise<RawClient> {
  const [clientSide, serverSide] = createMemoryTransportPair({ info: [undefined, info] });
  const received: JsonRpcPayload[] = [];
  const consumed = new Set<JsonRpcPayload>();
  const waiters: { match: (p: JsonRpcPayload) => boolean; resolve: (p: JsonRpcPayload) => void }[] = [];
  await clientSide.start({
    payload(payload) {
      received.push(payload);
      const i = waiters.findIndex((w) => w.match(payload));
      if (i >= 0) {
        consumed.add(payload);
        waiters.splice(i, 1)[0]?.resolve(payload);
      }
    },
    error() {},
    closed() {},
  });
  const session = await server.connect(serverSide, connectOptions);
  const next = (match: (p: JsonRpcPayload) => boolean): Promise<JsonRpcPayload> => {
    const found = received.find((p) => !consumed.has(p) && match(p));
    if (found !== undefined) {
      consumed.add(found);
      return Promise.resolve(found);
    }
    return new Promise((resolve) => waiters.push({ match, resolve }));
  };
  return {
    send: (payload) => clientSide.send(payload),
    async call(id, method, params) {
      const message = params === undefined ? { jsonrpc: "2.0" as const, id, method } : { jsonrpc: "2.0" as const, id, method, params: params as JsonRpcParams };
      await clientSide.send(message);
      return (await next((p) => !Array.isArray(p) && "id" in p && p.id === id && !("method" in p))) as JsonRpcResponse;
    },
    next,
    received,
    session,
    close: () => clientSide.close(),
  };
}

/** Initializes a raw client at `version`. */
export async function initializeRaw(client: RawClient, version = "2025-11-25", capabilities: Record<string, unknown> = {}): Promise<JsonRpcResponse> {
  const response = await client.call("init", "initialize", { protocolVersion: version, capabilities, clientInfo: { name: "raw", version: "0" } });
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return response;
}
