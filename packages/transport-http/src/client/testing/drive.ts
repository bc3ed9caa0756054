/**
 * Test helpers (not part of the package surface): drive a client transport with a jsonrpc
 * `Peer` the way an MCP client would, without depending on an MCP client package.
 */
import { createPeer } from "@proto/jsonrpc";
import type { Peer, Transport } from "@proto/jsonrpc";

/** A peer over `transport` that records `notifications/message` log data. */
export interface DrivenPeer {
  readonly peer: Peer;
  readonly logs: unknown[];
}

/** Creates and starts a peer over `transport`, answering `ping` and recording log notifications. */
export async function drive(transport: Transport): Promise<DrivenPeer> {
  const peer = createPeer(transport, { requestTimeoutMs: 20_000 });
  const logs: unknown[] = [];
  peer.handle("ping", () => ({}));
  peer.handleNotification("notifications/message", (params) => {
    logs.push((params as { data?: unknown } | undefined)?.data);
  });
  await peer.start();
  return { peer, logs };
}

/** Runs the MCP handshake: `initialize`, then `notifications/initialized`. */
export async function initialize(peer: Peer, protocolVersion = "2025-11-25"): Promise<{ protocolVersion: string }> {
  const result = (await peer.request("initialize", {
    protocolVersion,
    capabilities: {},
    clientInfo: { name: "proto-test", version: "0.0.0" },
  })) as { protocolVersion: string };
  await peer.notify("notifications/initialized");
  return result;
}

/** Calls a tool and returns the text of its first content item. */
export async function callText(peer: Peer, name: string): Promise<string | undefined> {
  const result = (await peer.request("tools/call", { name, arguments: {} })) as { content?: { text?: string }[] };
  return result.content?.[0]?.text;
}

/** Resolves when `predicate` holds, checking after each event of `subscribe`. */
export function until<T>(subscribe: (listener: (event: T) => void) => () => void, predicate: (event: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const stop = subscribe((event) => {
      if (!predicate(event)) return;
      stop();
      resolve(event);
    });
  });
}
