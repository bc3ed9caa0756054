/**
 * The configuration of a gateway and of each child server behind it: what `createGateway`
 * takes and what a config file (the registry's `clis`, or a host's `mcpServers`) describes.
 */
import type { Logger, Transport } from "@proto/jsonrpc";
import type { HttpAuth } from "@proto/transport-http";

/** Glob filters on a child's original names (or URIs): `*` any run of characters, `?` one. */
export interface NameFilter {
  /** Only what matches one of these is exposed (default: everything). */
  readonly allow?: readonly string[];
  /** What matches one of these is never exposed, even when allowed. */
  readonly deny?: readonly string[];
}

/** What every kind of child has. */
export interface ChildCommonConfig {
  /** For `--list` and the banner. */
  readonly description?: string;
  /** Filters on tool names. */
  readonly tools?: NameFilter;
  /** Filters on prompt names. */
  readonly prompts?: NameFilter;
  /** Filters on resource URIs and resource template URI templates. */
  readonly resources?: NameFilter;
  /** A request to the child fails after this long without an answer or progress (ms). Default 60,000. */
  readonly timeoutMs?: number;
  /** Hard cap on one request, whatever progress says (ms). Default 600,000. */
  readonly maxTotalMs?: number;
  /** Time for the child to start and answer `initialize` (ms). Default 30,000. */
  readonly startupTimeoutMs?: number;
  /**
   * `"eager"` (default): started with the gateway, and the gateway's first lists wait for it
   * (up to `readyTimeoutMs`). `"lazy"`: started in the background, listed when it is up, stopped
   * after `idleTimeoutMs` with nothing in flight, started again by the next call.
   */
  readonly lifecycle?: "eager" | "lazy";
  /** Idle time before a lazy child is stopped (ms). Default 300,000. */
  readonly idleTimeoutMs?: number;
  /** The gateway fails to start when this child cannot. Default false (fail-open). */
  readonly required?: boolean;
  /** Keep the entry but never start it. Default false. */
  readonly disabled?: boolean;
  /**
   * The revision the gateway speaks to this child: `"auto"` (default) probes with
   * `server/discover` and falls back to `initialize`; a version pins that revision and skips the
   * probe (use it for a child that starts slower than the probe's 5 s, or one known to be 2025-only).
   */
  readonly protocol?: "auto" | "2026-07-28" | "2025-11-25";
}

/** A child run as a local process speaking MCP over stdio. */
export interface StdioChildConfig extends ChildCommonConfig {
  /** The program, or the whole command line as an array (`["uvx", "weather-mcp"]`). Never run through a shell. */
  readonly command: string | readonly string[];
  /** Arguments after the command. */
  readonly args?: readonly string[];
  /** Working directory. */
  readonly cwd?: string;
  /** Variables added to the small inherited set (PATH, HOME, ...); `${env:NAME}` is replaced by this process's NAME. */
  readonly env?: { readonly [name: string]: string };
}

/** Credentials for a remote child: a bearer token from the environment, a literal one, or any `HttpAuth` (the OAuth provider of `@proto/mcp-client/oauth`). */
export type RemoteAuth = { readonly bearerEnv: string } | { readonly bearer: string } | HttpAuth;

/** A child reached over Streamable HTTP (falling back to legacy SSE), or over legacy SSE only. */
export interface RemoteChildConfig extends ChildCommonConfig {
  /** The MCP endpoint. */
  readonly url: string;
  /** `"http"` (default): Streamable HTTP with the legacy fallback; `"sse"`: legacy HTTP+SSE only. */
  readonly type?: "http" | "sse";
  /** Extra request headers; `${env:NAME}` is replaced by this process's NAME. */
  readonly headers?: { readonly [name: string]: string };
  /** The child's own credentials. The upstream client's are never forwarded. */
  readonly auth?: RemoteAuth;
}

/** A child reached through a transport you make (in-memory servers, custom transports). */
export interface TransportChildConfig extends ChildCommonConfig {
  /** Makes a fresh transport for each start of the child. */
  readonly transport: () => Transport | Promise<Transport>;
}

/** One child server. */
export type ChildConfig = StdioChildConfig | RemoteChildConfig | TransportChildConfig;

/** Makes the transport of a stdio child; `stdioTransport` of `@proto/mcp-gateway/node` is the one for Node. */
export type StdioSpawner = (config: StdioChildConfig, child: string) => Transport;

/** How long to wait before restarting a crashed child, and when to give up. */
export interface RestartOptions {
  /** First delay (ms). Default 500. */
  readonly initialDelayMs?: number;
  /** Largest delay (ms). Default 30,000. */
  readonly maxDelayMs?: number;
  /** This many crashes within `windowMs` mark the child failed (its tools are removed). Default 5. */
  readonly maxCrashes?: number;
  /** Default 60,000. */
  readonly windowMs?: number;
}

/** Options of `createGateway`. */
export interface GatewayOptions {
  /** The gateway's name: a lowercase DNS label (`gw`, `my-gateway`); it is the host of rewritten `ui://` URIs. */
  readonly name: string;
  /** Sent as `serverInfo.version`. Default `"0.1.0"`. */
  readonly version?: string;
  /** The children by name: 1-32 of `a-z 0-9 -`, starting and ending with a letter or digit. */
  readonly children: { readonly [name: string]: ChildConfig };
  /** Between the child name and a tool or prompt name. Default `"__"`; `"."` gives `taskman.add` (not accepted by some hosts). */
  readonly separator?: "__" | ".";
  /** `"provider"` (default): exposed names match `[A-Za-z0-9_-]{1,64}`; `"spec"`: `[A-Za-z0-9_.-]{1,128}`. `separator: "."` needs `"spec"`. */
  readonly nameStyle?: "provider" | "spec";
  /** `"unique"` (default): a call by a child's own tool name (as MCP Apps views make) is routed when one child has it. `"off"`: never. */
  readonly bareNames?: "unique" | "off";
  /** The gateway's first lists wait this long for eager children (ms). Default 5,000. */
  readonly readyTimeoutMs?: number;
  /** `"shared"` (default): one set of children for every upstream session (stdio). `"isolated"`: children per upstream session (HTTP). */
  readonly sessions?: "shared" | "isolated";
  /** Restart policy for crashed children. */
  readonly restart?: RestartOptions;
  /** Makes stdio children's transports (required when a child has a `command`). */
  readonly stdio?: StdioSpawner;
  /** Instructions sent in `initialize`; default: a sentence naming the children and the naming rule. */
  readonly instructions?: string;
  /** Warnings (duplicates, renames, broken links, crashes). Default: discarded. */
  readonly logger?: Logger;
}
