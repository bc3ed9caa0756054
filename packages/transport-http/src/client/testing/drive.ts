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
  /** What the peer's logger was warned of (transport faults arrive here as "CODE: message"). */
  readonly warnings: string[];
  /** Resolves once `count` log notifications have arrived. */
  logged(count: number): Promise<void>;
}

/** Creates and starts a peer over `transport`, answering `ping` and recording log notifications. */
export async function drive(transport: Transport, requestTimeoutMs = 20_000): Promise<DrivenPeer> {
  const warnings: string[] = [];
  const peer = createPeer(transport, {
    requestTimeoutMs,
    logger: { warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) },
  });
  const logs: unknown[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  peer.handle("ping", () => ({}));
  peer.handle("roots/list", () => ({ roots: [] }));
  peer.handleNotification("notifications/message", (params) => {
    logs.push((params as { data?: unknown } | undefined)?.data);
    for (const waiter of waiters) if (logs.length >= waiter.count) waiter.resolve();
  });
  const logged = (count: number): Promise<void> =>
    logs.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }));
  await peer.start();
  return { peer, logs, warnings, logged };
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
