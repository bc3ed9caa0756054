/**
 * Test support for the feature tests (not exported from the package): a raw JSON-RPC client
 * over a memory transport pair that records every frame the server sends, for checks the
 * official SDK client hides (a response that must never arrive, a notification that must not
 * be sent).
 */
import type { JsonRpcMessage, JsonRpcParams, JsonRpcPayload } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import type { Server } from "../server-types";
import type { ServerSession } from "../session-types";

/** A raw client: `call` resolves with the response to its id; `frames` holds every message received. */
export interface RawClient {
  readonly session: ServerSession;
  readonly frames: JsonRpcMessage[];
  send(message: JsonRpcPayload): Promise<void>;
  call(id: number | string, method: string, params?: unknown): Promise<JsonRpcMessage>;
  /** Resolves with the first received message (past or future) that `match` accepts. */
  next(match: (message: JsonRpcMessage) => boolean): Promise<JsonRpcMessage>;
}

/** Connects a raw client and runs `initialize` (at `protocolVersion`) + `notifications/initialized` with `capabilities`. */
export async function connectRawClient(server: Server, capabilities: Record<string, unknown> = {}, protocolVersion = "2025-11-25"): Promise<RawClient> {
  const [mine, theirs] = createMemoryTransportPair();
  const frames: JsonRpcMessage[] = [];
  const waiters: { match: (m: JsonRpcMessage) => boolean; resolve: (m: JsonRpcMessage) => void }[] = [];
  await mine.start({
    payload(payload) {
      for (const message of Array.isArray(payload) ? payload : [payload as JsonRpcMessage]) {
        frames.push(message);
        for (const w of waiters.filter((x) => x.match(message))) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(message);
        }
      }
    },
    error() {},
    closed() {},
  });
  const session = await server.connect(theirs);
  const next = (match: (m: JsonRpcMessage) => boolean): Promise<JsonRpcMessage> => {
    const found = frames.find(match);
    return found !== undefined ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ match, resolve }));
  };
  const call = async (id: number | string, method: string, params?: unknown): Promise<JsonRpcMessage> => {
    const wait = next((m) => "id" in m && m.id === id && !("method" in m));
    await mine.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params: params as JsonRpcParams });
    return wait;
  };
  await call("init", "initialize", { protocolVersion, capabilities, clientInfo: { name: "raw", version: "0" } });
  await mine.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { session, frames, send: (m) => mine.send(m), call, next };
}
