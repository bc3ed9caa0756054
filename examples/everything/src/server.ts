/**
 * The everything server's command line:
 *
 *   node dist/server.js --stdio         serve MCP on stdin/stdout (banner on stderr)
 *   node dist/server.js --port N        serve Streamable HTTP at http://127.0.0.1:N/mcp (0: any free port)
 *                      [--cors ORIGINS] let browser pages on those origins (comma-separated, or *) call it
 *   node dist/server.js --demo          run the demo: our client drives `--stdio` and prints a transcript
 */
import type { Logger } from "@proto/jsonrpc";
import type { CorsOptions } from "@proto/transport-http";
import { serveStdio } from "@proto/transport-stdio/node";
import { createEverythingServer } from "./everything-server";
// `--port` and `--demo` load their modules when chosen: a stdio server never loads the HTTP
// transport, the client, OAuth or JWT code (issue 16: cold start).

const USAGE = `usage: node server.js --stdio | --port <n> [--host <address>] [--cors <origins>] | --demo

  --stdio          serve MCP over stdin/stdout (a host spawns this)
  --port <n>       serve Streamable HTTP at http://127.0.0.1:<n>/mcp; 0 picks a free port
  --host <address> the address to bind with --port (default 127.0.0.1)
  --cors <origins> with --port: CORS for browser pages on these origins, comma-separated
                   (e.g. http://localhost:5173), or * for any origin the Origin check admits; off by default
  --demo           start the server over stdio with our client and print a short transcript
`;

/** Warnings and handler failures of the server and the HTTP handler, one line each on stderr. */
const stderrLogger: Logger = {
  warn: (message, detail) => process.stderr.write(`proto-everything warn: ${message}${describe(detail)}\n`),
  error: (message, detail) => process.stderr.write(`proto-everything error: ${message}${describe(detail)}\n`),
};

function describe(detail: unknown): string {
  if (detail === undefined) return "";
  if (detail instanceof Error) return `: ${detail.message}`;
  try {
    return `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`;
  } catch {
    return `: ${String(detail)}`;
  }
}

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function valueOf(args: readonly string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith("--")) fail(`${flag} needs a value`);
  return value;
}

function corsOf(text: string | undefined): CorsOptions | undefined {
  if (text === undefined) return undefined;
  if (text === "*") return { origins: "*" };
  const origins = text.split(",").map((o) => o.trim()).filter((o) => o !== "");
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) fail(`--cors: ${origin} is not an origin; write scheme://host[:port], e.g. http://localhost:5173`);
  }
  if (origins.length === 0) fail("--cors needs * or a comma-separated list of origins");
  return { origins };
}

async function serveHttp(args: readonly string[]): Promise<void> {
  const text = valueOf(args, "--port") ?? "";
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) fail(`--port must be a number from 0 to 65535, got ${text}`);
  const host = valueOf(args, "--host");
  const cors = corsOf(valueOf(args, "--cors"));
  const { startHttpServer } = await import("./http");
  const running = await startHttpServer({ port, logger: stderrLogger, ...(host === undefined ? {} : { host }), ...(cors === undefined ? {} : { cors }) });
  process.stderr.write(`proto-everything: Streamable HTTP on port ${running.port}\nproto-everything: MCP endpoint ${running.url} (Ctrl-C stops)\n`);
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop).once("SIGTERM", stop);
}

async function main(args: readonly string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.includes("--stdio")) {
    await serveStdio(createEverythingServer({ logger: stderrLogger }).server);
    return;
  }
  if (args.includes("--port")) return serveHttp(args);
  if (args.includes("--demo")) {
    const { runDemo } = await import("./demo");
    await runDemo(process.argv[1] ?? "server.js");
    return;
  }
  fail("choose --stdio, --port <n> or --demo");
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`proto-everything: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
