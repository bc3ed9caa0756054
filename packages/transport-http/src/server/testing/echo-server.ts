/**
 * Test fixture (not part of the package surface): a tiny MCP-ish server built on a jsonrpc
 * `Peer`, standing in for @proto/mcp-server in transport tests. It answers `initialize`,
 * `ping`, `tools/list` and `tools/call` (tools `echo`, `chatty` that logs before answering,
 * `whoami`, `wait` that blocks on a gate, `ask` that requests `roots/list` from the client,
 * `bigint` whose result JSON cannot carry, `chatty-bigint` that logs first), and the extension
 * method `x/bigint` (a result with a `BigInt`).
 */
import { createPeer } from "@proto/jsonrpc";
import type { ExchangeInfo, JsonRpcParams, Peer, Transport } from "@proto/jsonrpc";
import { mcpCancellation, negotiateVersion } from "@proto/mcp-protocol";

/** A counter-based gate: `wait(n)` resolves once `release` has been called n+1 times in total. */
export interface Gate {
  release(count?: number): void;
  wait(index: number): Promise<void>;
}

/** Creates a gate. */
export function createGate(): Gate {
  let allowed = 0;
  const waiters = new Map<number, () => void>();
  return {
    release(count = 1) {
      allowed += count;
      for (const [index, resolve] of waiters) {
        if (index < allowed) {
          waiters.delete(index);
          resolve();
        }
      }
    },
    wait(index) {
      if (index < allowed) return Promise.resolve();
      return new Promise((resolve) => waiters.set(index, resolve));
    },
  };
}

/** The echo server and what it observed. */
export interface EchoServer {
  /** Pass as the handler's `connect` option. */
  connect(transport: Transport): Promise<void>;
  /** Every peer connected so far (one per session, or per POST when stateless). */
  readonly peers: Peer[];
  /** The exchange info of every tools/call, in arrival order. */
  readonly calls: ExchangeInfo[];
  /** Gate used by the `ticks` tool: it sends tick i once `gate.wait(i)` resolves. */
  readonly gate: Gate;
  /** Resolves with the signal reason of `wait` calls that were aborted. */
  readonly aborted: unknown[];
}

const TOOLS = ["echo", "chatty", "whoami", "ticks", "wait", "ask", "bigint", "chatty-bigint"].map((name) => ({ name, inputSchema: { type: "object" } }));

function args(params: JsonRpcParams | undefined): { [key: string]: unknown } {
  const value = (params as { arguments?: unknown } | undefined)?.arguments;
  return typeof value === "object" && value !== null ? (value as { [key: string]: unknown }) : {};
}

function text(value: unknown): { content: { type: "text"; text: string }[] } {
  return { content: [{ type: "text", text: typeof value === "string" ? value : JSON.stringify(value) }] };
}

/** Creates the echo server. */
export function createEchoServer(): EchoServer {
  const peers: Peer[] = [];
  const calls: ExchangeInfo[] = [];
  const aborted: unknown[] = [];
  const gate = createGate();

  async function connect(transport: Transport): Promise<void> {
    const peer = createPeer(transport, { cancellation: mcpCancellation });
    peers.push(peer);
    peer.handle("initialize", (params) => ({
      protocolVersion: negotiateVersion((params as { protocolVersion?: unknown } | undefined)?.protocolVersion),
      capabilities: { tools: {}, logging: {} },
      serverInfo: { name: "echo", version: "1.0.0" },
    }));
    peer.handleNotification("notifications/initialized", () => undefined);
    peer.handle("ping", () => ({}));
    peer.handle("echo", (params) => params ?? {});
    peer.handle("x/bigint", () => ({ n: 10n }));
    peer.handle("tools/list", () => ({ tools: TOOLS }));
    peer.handle("tools/call", async (params, ctx) => {
      calls.push(ctx.info);
      const name = (params as { name?: unknown } | undefined)?.name;
      const input = args(params);
      switch (name) {
        case "echo":
          return text(input.text ?? "");
        case "chatty": {
          const count = typeof input.count === "number" ? input.count : 3;
          for (let i = 0; i < count; i += 1) await ctx.notify("notifications/message", { level: "info", data: `line ${i}` });
          return text(`sent ${count}`);
        }
        case "whoami":
          return text(ctx.info.principal?.subject ?? "anonymous");
        case "ticks": {
          const count = typeof input.count === "number" ? input.count : 10;
          for (let i = 0; i < count; i += 1) {
            await gate.wait(i);
            await ctx.notify("notifications/message", { level: "info", data: { tick: i } });
          }
          return text(`ticked ${count}`);
        }
        case "wait":
          await new Promise<void>((resolve) => {
            if (ctx.signal.aborted) resolve();
            ctx.signal.addEventListener("abort", () => resolve(), { once: true });
          });
          aborted.push(ctx.signal.reason);
          return text("aborted");
        case "bigint":
          return { n: 10n };
        case "chatty-bigint":
          await ctx.notify("notifications/message", { level: "info", data: "about to fail" });
          return { n: 10n };
        case "ask":
          return text(await ctx.request("roots/list", {}));
        default:
          return { content: [{ type: "text", text: `unknown tool ${String(name)}` }], isError: true };
      }
    });
    await peer.start();
  }

  return { connect, peers, calls, gate, aborted };
}
