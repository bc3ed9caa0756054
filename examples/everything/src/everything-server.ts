/**
 * The everything server: every tool, resource and prompt the MCP conformance server scenarios
 * ask for, plus logging and completions, built with @proto/mcp-server alone. One definition
 * serves any number of sessions (stdio serves one; HTTP one per `Mcp-Session-Id`).
 */
import type { Logger } from "@proto/jsonrpc";
import { createServer, type Server } from "@proto/mcp-server";
import { SERVER_INFO } from "./fixtures";
import { registerPrompts } from "./prompts";
import { registerResources, type ResourceOptions } from "./resources";
import { registerTools, type ToolOptions } from "./tools";
import { installApps } from "./apps";

/** Options of `createEverythingServer`. */
export interface EverythingOptions extends ToolOptions, ResourceOptions {
  /** Where the server's warnings go (handler failures). Default: nowhere. */
  readonly logger?: Logger;
}

/** The server and what must be stopped with it. */
export interface EverythingServer {
  readonly server: Server;
  /** Stops the watched resource's timer and closes every session. */
  close(): Promise<void>;
}

/** Builds the everything server. Connect it with `server.connect(transport)` (or `serveStdio`). */
export function createEverythingServer(options: EverythingOptions = {}): EverythingServer {
  const { instructions, ...info } = SERVER_INFO;
  const server = createServer(
    { ...info, instructions },
    {
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      tasks: { pollIntervalMs: 250 },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
    },
  );
  registerTools(server, options);
  const stopUpdates = registerResources(server, options);
  registerPrompts(server);
  installApps(server);
  return {
    server,
    async close() {
      stopUpdates();
      await server.close();
    },
  };
}
