/**
 * The serving modes of `proto-gateway`: stdio (one shared set of children) and Streamable
 * HTTP on 127.0.0.1 (children per upstream session). Both print a banner to stderr naming the
 * children and tools; both stop the children before resolving: on stdin EOF (stdio), SIGINT or
 * SIGTERM.
 */
import type { Logger } from "@proto/jsonrpc";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { serveStdio } from "@proto/transport-stdio/node";
import { describeError } from "./classify";
import type { CliArgs, CliIo } from "./cli-run";
import { createGateway } from "./gateway";
import type { Gateway } from "./gateway-types";
import { createStdioSpawner } from "./stdio-spawner";
import type { NodeStdioSpawner } from "./stdio-spawner";
import type { ChildConfig } from "./types";

const MAX_LISTED = 20;

function oneLine(value: unknown, max = 300): string {
  return describeError(value).replace(/\s+/g, " ").slice(0, max);
}

/** The revisions served: the 2026-07-28 ones per request, then the newest session one. */
function protocols(summary: { readonly protocolVersion: string; readonly statelessVersions: readonly string[] }): string {
  const modern = summary.statelessVersions.map((v) => `${v} (per request)`);
  return [...modern, `${summary.protocolVersion} (sessions)`].join(", ");
}

/** The start-up banner. */
export function formatGatewayBanner(gateway: Gateway, transport: string, perSession = false): string {
  const status = gateway.status();
  const catalog = gateway.catalog();
  const tools = catalog.tools.filter((t) => !t.appOnly).map((t) => t.exposed);
  const lines = [
    `${gateway.info.name} ready`,
    `  Protocol:  ${protocols(gateway.summary())}`,
    `  Children:  ${status.length} (${status.map((s) => s.name).join(", ")})`,
    perSession ? "  Tools:     listed per session (each upstream session starts its own children)" : `  Tools:     ${tools.length}`,
  ];
  if (tools.length > 0) lines.push(`  Available: ${tools.slice(0, MAX_LISTED).join(", ")}${tools.length > MAX_LISTED ? `, and ${tools.length - MAX_LISTED} more` : ""}`);
  for (const r of catalog.renames) lines.push(`  Renamed:   ${r.child} "${r.name.slice(0, 80)}" -> ${r.exposed}`);
  for (const s of status.filter((s) => s.state === "starting" || s.state === "restarting")) lines.push(`  Starting:  ${s.name} (its tools are announced with list_changed when it is up)`);
  for (const s of status.filter((s) => s.state === "failed")) lines.push(`  Failed:    ${s.name}: ${oneLine(s.error)}`);
  if (status.length === 0) lines.push("  Warning:   no servers to serve: register one with proto-gateway install NAME -- COMMAND, or pass --config FILE");
  lines.push(`  Transport: ${transport}`);
  return `${lines.join("\n")}\n`;
}

function stderrLogger(io: CliIo): Logger {
  return {
    warn: (text, error) => io.stderr(`proto-gateway: ${text}${error === undefined ? "" : `: ${oneLine(error, 1000)}`}\n`),
    error: (text, error) => io.stderr(`proto-gateway: ${text}${error === undefined ? "" : `: ${oneLine(error)}`}\n`),
  };
}

function untilSignal(): { readonly stopped: Promise<void>; dispose(): void } {
  let resolve!: () => void;
  const stopped = new Promise<void>((r) => (resolve = r));
  const onSignal = () => resolve();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return { stopped, dispose: () => (process.off("SIGINT", onSignal), process.off("SIGTERM", onSignal)) };
}

/** The spawner of the running CLI gateway (the bin kills its groups on crash paths). */
export let activeSpawner: NodeStdioSpawner | undefined;

/** Serves the gateway as asked; resolves with the exit code once it stopped. */
export async function serveGateway(args: CliArgs, children: { readonly [name: string]: ChildConfig }, io: CliIo): Promise<number> {
  const spawner = createStdioSpawner();
  activeSpawner = spawner;
  const gateway = createGateway({ name: args.name, children, stdio: spawner, sessions: args.mode === "http" ? "isolated" : "shared", logger: stderrLogger(io) });
  const signals = untilSignal();
  try {
    if (args.mode === "mcp") {
      const service = await serveStdio(gateway, { banner: false, exitOnClose: false });
      try {
        await gateway.start();
      } catch (error) {
        io.stderr(`proto-gateway: a required child failed to start: ${oneLine(error)}\n`);
        return 1;
      }
      io.stderr(formatGatewayBanner(gateway, "stdin/stdout (JSON-RPC, one message per line)"));
      await Promise.race([service.closed, signals.stopped]);
      return 0;
    }
    // Children start per upstream session (isolated), so nothing starts before the first one.
    const handler = createNodeHttpHandler({ connect: (transport) => gateway.connect(transport) });
    const http = createNodeHttpServer(handler);
    await new Promise<void>((resolve, reject) => http.once("error", reject).listen(args.port, "127.0.0.1", resolve)).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      throw new Error(`127.0.0.1:${String(args.port)} is already in use: stop what holds it, or choose another port with --port N (--port 0 picks a free one)`, { cause: error });
    });
    const address = http.address();
    const port = typeof address === "object" && address !== null ? address.port : args.port;
    io.stderr(formatGatewayBanner(gateway, `Streamable HTTP on http://127.0.0.1:${String(port)}/mcp (children per session)`, true));
    await signals.stopped;
    await new Promise<void>((resolve) => http.close(() => resolve()));
    return 0;
  } finally {
    signals.dispose();
    await gateway.close();
    activeSpawner = undefined;
  }
}
