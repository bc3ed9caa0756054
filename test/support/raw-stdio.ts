/**
 * Raw lines to a server over the real stdio server transport (a PassThrough pair instead of a
 * child's pipes): `ask` writes one line and resolves with the next line the server writes, parsed.
 */
import { PassThrough } from "node:stream";
import type { DecodeLimits } from "@proto/jsonrpc";
import type { Server } from "@proto/mcp-server";
import { createStdioServerTransport } from "@proto/transport-stdio/node";

/** A server spoken to line by line. */
export interface RawStdio {
  /** Writes `line` (text as given, or a value as JSON) and resolves with the next line the server writes. */
  ask(line: unknown): Promise<Record<string, unknown> | Record<string, unknown>[]>;
  /** Writes a line that gets no answer (a notification). */
  tell(line: unknown): void;
  close(): Promise<void>;
}

/** Connects `server` over a stdio server transport on a PassThrough pair and initializes it at `version` (none: not initialized). */
export async function rawStdio(server: Server, options: { version?: string; limits?: DecodeLimits } = {}): Promise<RawStdio> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let buffered = "";
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      waiting.shift()?.(JSON.parse(line) as Record<string, unknown>);
    }
  });
  await server.connect(createStdioServerTransport({ stdin, stdout, ...(options.limits === undefined ? {} : { limits: options.limits }) }));
  const text = (line: unknown): string => `${typeof line === "string" ? line : JSON.stringify(line)}\n`;
  const raw: RawStdio = {
    ask: (line) => new Promise((resolve) => {
      waiting.push(resolve);
      stdin.write(text(line));
    }),
    tell: (line) => void stdin.write(text(line)),
    close: () => server.close(),
  };
  if (options.version !== undefined) {
    await raw.ask({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: options.version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    raw.tell({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  return raw;
}
