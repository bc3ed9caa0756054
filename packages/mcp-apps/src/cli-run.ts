/** The `proto-apps` command line, as a function (the `bin` entry only wires it to the process). */
import { formatVerifyReport } from "./verify-format";
import { verifyCommand, verifyModule } from "./verify-node";
import type { VerifyReport } from "./verify-types";

/** Where the CLI writes and runs. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd?: string;
}

const USAGE = `usage: proto-apps verify (--module <path.js>[#export] | --stdio "<command line>") [--json] [--timeout <ms>]

  --module <path>[#export]  import a module exporting the server (default export, or "server"),
                            or a function returning it, and connect to it in memory
  --stdio "<command>"       spawn a stdio MCP server, e.g. --stdio "node dist/server.js --stdio"
  --json                    print the report as JSON
  --timeout <ms>            per request and for connecting (default 30000)

Checks (stable ids): ui/negotiation, ui/link-integrity, ui/tool-metadata, ui/mime-type,
ui/content-shape, ui/csp-metadata, ui/documentation. It checks transport shape only: it does
not render or sanitise HTML.
Exit status: 0 when no check failed (warnings allowed), 1 when a check failed or the server
could not be loaded or reached, 2 for a usage error.
`;

interface Parsed {
  readonly module?: string;
  readonly stdio?: string;
  readonly json: boolean;
  readonly timeoutMs?: number;
}

function parse(argv: readonly string[]): Parsed | string {
  if (argv[0] !== "verify") return argv.length === 0 ? "missing command" : `unknown command "${argv[0]}"`;
  const out: { module?: string; stdio?: string; json: boolean; timeoutMs?: number } = { json: false };
  for (let i = 1; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--json") out.json = true;
    else if (flag === "--module" || flag === "--stdio" || flag === "--timeout") {
      if (value === undefined) return `${flag} needs a value`;
      i++;
      if (flag === "--module") out.module = value;
      else if (flag === "--stdio") out.stdio = value;
      else if (!/^[1-9][0-9]{0,8}$/.test(value)) return "--timeout must be a positive number of milliseconds";
      else out.timeoutMs = Number(value);
    } else return `unknown option "${flag}"`;
  }
  if ((out.module === undefined) === (out.stdio === undefined)) return "pass exactly one of --module or --stdio";
  return out;
}

/**
 * Runs `proto-apps` with `argv` (without the program name); resolves with the exit status:
 * 0 verified (warnings allowed), 1 a check failed or the server could not be reached, 2 usage.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout(USAGE);
    return 0;
  }
  const parsed = parse(argv);
  if (typeof parsed === "string") {
    io.stderr(`proto-apps: ${parsed}\n\n${USAGE}`);
    return 2;
  }
  const options = { ...(io.cwd === undefined ? {} : { cwd: io.cwd }), ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }) };
  let report: VerifyReport;
  try {
    report = parsed.module !== undefined ? await verifyModule(parsed.module, options) : await verifyCommand(parsed.stdio as string, options);
  } catch (error) {
    const what = parsed.module !== undefined ? `load or connect to module ${parsed.module}` : `start or connect to ${parsed.stdio}`;
    io.stderr(`proto-apps: could not ${what}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  io.stdout(parsed.json ? `${JSON.stringify(report, null, 2)}\n` : formatVerifyReport(report));
  return report.ok ? 0 : 1;
}
