/**
 * The `proto-gateway` command line: `--mcp` (serve stdio), `--port N` (Streamable HTTP on
 * 127.0.0.1), `--list`, `install NAME -- COMMAND...`, `uninstall NAME`, `--config FILE`,
 * `--registry FILE`, `--name NAME`, `--help`. Returns the exit code: 0 done, 1 failed, 2 usage.
 */
import type { ChildConfig } from "./types";
import { parseGatewayConfig } from "./config";
import { installChild, readJsonFile, registryChildren, registryPath, uninstallChild } from "./registry";
import { serveGateway } from "./cli-serve";

/** Where the CLI writes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The parsed command line. */
export interface CliArgs {
  readonly mode: "mcp" | "http" | "list" | "install" | "uninstall" | "help";
  readonly port?: number;
  readonly config?: string;
  readonly registry?: string;
  readonly name: string;
  readonly target?: string;
  readonly command?: readonly string[];
  readonly description?: string;
}

export const USAGE = `proto-gateway: one MCP server in front of every registered server

  proto-gateway --mcp                       serve the gateway on stdin/stdout
  proto-gateway --port 3000                 serve Streamable HTTP on 127.0.0.1:3000 (/mcp)
  proto-gateway --list                      list the registered servers
  proto-gateway install NAME [--description TEXT] -- COMMAND [ARGS...]
  proto-gateway uninstall NAME

  --config FILE     read servers from FILE ({"mcpServers": ...} or {"version":1,"clis": ...}) instead of the registry
  --registry FILE   the registry file (default: $PROTO_GATEWAY_REGISTRY, else ~/.milo/registry.json)
  --name NAME       the gateway's name (default "proto-gateway"; the host of rewritten ui:// URIs)
  --help            this text
`;

/** Parses argv; throws a `TypeError` with the usage problem. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const dash = argv.indexOf("--");
  const args = dash < 0 ? [...argv] : argv.slice(0, dash);
  const command = dash < 0 ? undefined : argv.slice(dash + 1);
  let mode: CliArgs["mode"] | undefined;
  const out: { -readonly [K in keyof CliArgs]?: CliArgs[K] } = { name: "proto-gateway" };
  const set = (m: CliArgs["mode"]) => {
    if (mode !== undefined && mode !== m) throw new TypeError(`choose one of --mcp, --port, --list, install, uninstall (got ${mode} and ${m})`);
    mode = m;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new TypeError(arg === "install" || arg === "uninstall" ? `${arg} needs a NAME (proto-gateway ${arg} NAME${arg === "install" ? " -- COMMAND [ARGS...]" : ""})` : `${arg} needs a value`);
      return v;
    };
    if (arg === "--mcp") set("mcp");
    else if (arg === "--list") set("list");
    else if (arg === "--help" || arg === "-h") set("help");
    else if (arg === "--port") {
      set("http");
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError("--port needs a port number (0-65535)");
      out.port = port;
    } else if (arg === "--config") out.config = value();
    else if (arg === "--registry") out.registry = value();
    else if (arg === "--name") out.name = value();
    else if (arg === "--description") out.description = value();
    else if ((arg === "install" || arg === "uninstall") && mode === undefined) {
      set(arg);
      out.target = value();
    } else throw new TypeError(`unknown argument ${JSON.stringify(arg)}`);
  }
  if (mode === undefined) throw new TypeError("say what to do: --mcp, --port N, --list, install or uninstall");
  if (mode === "install" && (command === undefined || command.length === 0)) throw new TypeError("install NAME -- COMMAND [ARGS...]: give the command after --");
  return { ...out, mode, ...(command === undefined ? {} : { command }) } as CliArgs;
}

async function loadChildren(args: CliArgs): Promise<{ readonly [name: string]: ChildConfig }> {
  if (args.config === undefined) return registryChildren(args.registry ?? registryPath());
  return parseGatewayConfig(await readJsonFile(args.config, "--config"), args.config);
}

function describe(name: string, config: ChildConfig): string {
  const how = "command" in config ? [config.command, ...(config.args ?? [])].flat().join(" ") : "url" in config ? config.url : "(transport)";
  return `${name}${config.disabled ? " (disabled)" : ""}  ${how}${config.description ? `  ${config.description}` : ""}`;
}

/** Runs the CLI; resolves with the exit code (serving modes resolve when the gateway stops). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.stderr(`proto-gateway: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const registry = args.registry ?? registryPath();
  try {
    switch (args.mode) {
      case "help":
        io.stdout(USAGE);
        return 0;
      case "install": {
        const replaced = await installChild(args.target as string, { command: args.command as string[], ...(args.description === undefined ? {} : { description: args.description }) }, registry);
        io.stdout(replaced === undefined ? `registered ${args.target as string} in ${registry}\n` : `replaced ${args.target as string} in ${registry} (was: ${replaced.command.join(" ")})\n`);
        return 0;
      }
      case "uninstall":
        if (await uninstallChild(args.target as string, registry)) {
          io.stdout(`removed ${args.target as string} from ${registry}\n`);
          return 0;
        }
        io.stderr(`proto-gateway: ${args.target as string} is not registered in ${registry} (proto-gateway --list shows the registered servers)\n`);
        return 1;
      case "list": {
        const children = await loadChildren(args);
        const names = Object.keys(children).sort();
        io.stdout(names.length === 0 ? `no servers registered (${registry}); add one with: proto-gateway install NAME -- COMMAND\n` : `${names.map((n) => describe(n, children[n] as ChildConfig)).join("\n")}\n`);
        return 0;
      }
      default:
        return await serveGateway(args, await loadChildren(args), io);
    }
  } catch (error) {
    io.stderr(`proto-gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
