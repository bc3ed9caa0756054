/**
 * The `@proto/mcp-client` client of one child start. It declares the MCP Apps extension (so
 * children serve their views), sampling, elicitation and roots, and relays those requests to
 * the upstream client through `relay` (which refuses at once, -32601, when the upstream did
 * not declare the capability). It records frame faults (non-JSON or oversized lines on the
 * child's stdout) so failures can say "parse".
 */
import type { Logger } from "@proto/jsonrpc";
import { createClient } from "@proto/mcp-client";
import type { Client, ServerRequestContext } from "@proto/mcp-client";
import type { CreateMessageResult, ElicitResult, Root } from "@proto/mcp-protocol";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "@proto/mcp-apps";
import type { Transport } from "@proto/jsonrpc";

/** Relays a child's request to the upstream client. */
export type Relay = (method: "sampling/createMessage" | "elicitation/create" | "roots/list", params: unknown, context: ServerRequestContext) => Promise<unknown>;

/** What the child client needs. */
export interface ChildClientSetup {
  /** The child's name, which tags the client's warnings (the gateway's logger serves every child). */
  readonly child: string;
  readonly gateway: { readonly name: string; readonly version: string };
  readonly transport: () => Transport | Promise<Transport>;
  readonly startupTimeoutMs: number;
  /** The child's revision: `"auto"` probes, a version pins it. */
  readonly protocol: "auto" | "2026-07-28" | "2025-11-25";
  readonly timeoutMs: number;
  readonly maxTotalMs: number;
  readonly relay: Relay;
  /** Called with a frame fault's text. */
  readonly frameFault: (text: string) => void;
  readonly logger: Logger;
}

function isFrameFault(error: unknown): error is { code: string; message: string } {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === "BAD_FRAME" || code === "OVERSIZED";
}

/** Creates the client of one child start (not connected). */
export function createChildClient(setup: ChildClientSetup): Client {
  const { relay } = setup;
  const logger: Logger = {
    warn(text, error) {
      if (isFrameFault(error)) setup.frameFault(`${error.code}: ${error.message}`.slice(0, 300));
      setup.logger.warn(`gateway: child "${setup.child}": ${text}`, error);
    },
    error: (text, error) => setup.logger.error(`gateway: child "${setup.child}": ${text}`, error),
  };
  return createClient({
    info: setup.gateway,
    transport: setup.transport,
    connectTimeoutMs: setup.startupTimeoutMs,
    protocol: setup.protocol,
    // The `server/discover` probe (default 5,000 ms) must not outlast the child's start budget.
    probe: { timeoutMs: Math.min(5_000, setup.startupTimeoutMs) },
    reconnect: { retries: 0 },
    requestTimeoutMs: setup.timeoutMs,
    maxTotalTimeoutMs: setup.maxTotalMs,
    // The upstream client validates results against the schemas it was shown; a gateway passes them on.
    validateToolOutput: false,
    maxPages: 64,
    extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } },
    sampling: { tools: true, context: true, createMessage: async (params, ctx) => (await relay("sampling/createMessage", params, ctx)) as CreateMessageResult },
    elicitation: {
      form: async (params, ctx) => (await relay("elicitation/create", params, ctx)) as ElicitResult,
      url: async (params, ctx) => (await relay("elicitation/create", params, ctx)) as ElicitResult,
    },
    roots: async (ctx) => ((await relay("roots/list", {}, ctx)) as { roots: readonly Root[] }).roots,
    logger,
  });
}
