/** The public shape of a server: `createServer(info, options)` returns a `Server`. */
import type { JsonRpcRequest, Logger, Transport } from "@proto/jsonrpc";
import type { Implementation, LoggingLevel, ProtocolVersion, ServerCapabilities } from "@proto/mcp-protocol";
import type { ServerExtension } from "./extension";
import type { CacheOptions } from "./stateless/encode";
import type { ListenFanout } from "./stateless/fanout";
import type { RequestStateOptions } from "./stateless/request-state";
import type { FeatureApi } from "./builtin-features";
import type { ConnectOptions, ServerSession } from "./session-types";
import type { TasksOptions } from "./tasks/options";
import type { UnauthenticatedScopes } from "./tool-call";
import type { LazyToolDefinition, ToolDefinition, ToolHandle, ToolHandler, ToolInputSchemaLike, ToolOutputSchemaLike } from "./tool-types";
import type { JsonSchemaValidator } from "./validation";

/** Who the server is: sent as `serverInfo`, plus the instructions for the model. */
export interface ServerInfo extends Implementation {
  /** How to use this server; sent in `initialize` and `server/discover`. */
  readonly instructions?: string;
}

/** How the server serves the stateless revision 2026-07-28 (requests whose `_meta` carries the protocol claim). */
export interface StatelessOptions {
  /** The stateless revisions served, a subset of `MODERN_PROTOCOL_VERSIONS`; `[]` refuses every claim with -32022. Default: all. */
  readonly versions?: readonly ProtocolVersion[];
  /** Signing of the `requestState` of multi-round input: keys (rotation: the first signs, all verify), lifetime, size cap. */
  readonly requestState?: RequestStateOptions;
  /** `ttlMs` and `cacheScope` of list, read and discover results, per feature. Default `{ ttlMs: 0, cacheScope: "private" }`. */
  readonly cache?: CacheOptions;
  /** Most `subscriptions/listen` streams open at once across the server (beyond: -32603). Default 1024. */
  readonly maxListens?: number;
  /**
   * Many instances behind a load balancer: resource updates and list changes reach the
   * `subscriptions/listen` streams of every instance through this bus (e.g. the `fanout` of
   * `@proto/redis-stores`, which also reaches every shared 2025 session once, and announces a
   * change every instance makes once). Default: this instance's streams only.
   */
  readonly fanout?: ListenFanout;
}

/** Options of `createServer`. Every option has a safe default. */
export interface ServerOptions {
  /** Where warnings and handler failures go. Default: discarded (never `console`). */
  readonly logger?: Logger;
  /** Items per page of `tools/list` and the other lists. Default 1000 (hosts that ignore `nextCursor` still see everything usual). */
  readonly pageSize?: number;
  /** Timeout of requests the server sends to clients, in milliseconds. Default 60,000. */
  readonly requestTimeoutMs?: number;
  /** Capabilities to advertise in addition to those derived from what is registered (e.g. `{ tools: { listChanged: true } }` before any tool exists). */
  readonly capabilities?: ServerCapabilities;
  /** Versions to serve, newest first; a subset of `SUPPORTED_PROTOCOL_VERSIONS`. Default: all four. */
  readonly supportedVersions?: readonly ProtocolVersion[];
  /** Tools with `scopes` called without an authenticated principal (stdio): `"refuse"` (default) or `"allow"`. */
  readonly unauthenticatedScopes?: UnauthenticatedScopes;
  /** The log level a session gets before it sends `logging/setLevel` (the spec lets the server choose). Default `"info"`. */
  readonly logLevel?: LoggingLevel;
  /** The stateless revision (2026-07-28), served beside the session era by the same definition. */
  readonly stateless?: StatelessOptions;
  /**
   * The JSON Schema validator: `"auto"` (default) compiles with ajv unless the runtime refuses
   * code generation from strings (Cloudflare Workers, a strict CSP,
   * `--disallow-code-generation-from-strings`), where the interpreting `@cfworker/json-schema`
   * runs instead; `"ajv"` or `"interpreter"` to choose (under a CSP, choose `"interpreter"`:
   * the probe `"auto"` makes is reported as a violation). Standard Schemas always validate
   * with their own library.
   */
  readonly jsonSchemaValidator?: JsonSchemaValidator;
  /**
   * Serves tasks (2025-11-25 `capabilities.tasks`, and the 2026-07-28 extension
   * `io.modelcontextprotocol/tasks`): tools whose `execution.taskSupport` is `"optional"` or
   * `"required"` may run as tasks that outlive their request. Pass `{}` for the defaults (an
   * in-memory store of 10,000 tasks, 1 h TTL). Without it, registering such a tool throws.
   */
  readonly tasks?: TasksOptions;
  /**
   * Tools safe to run again on another instance when the one running a call dies (besides those
   * annotated `idempotentHint` or `readOnlyHint`): see `repeatable`. Default none.
   */
  readonly repeatableTools?: readonly string[];
}

/** What `summary()` reports (the stdio banner reads it). */
export interface ServerSummary {
  readonly name: string;
  readonly version: string;
  /** The newest session revision (2025-11-25 and older: what `initialize` negotiates). */
  readonly protocolVersion: string;
  /** The 2026-07-28 revisions answered per request (empty when the server serves none). */
  readonly statelessVersions: readonly string[];
  readonly tools: readonly string[];
}

/** The core of a server: tools, sessions, extensions. The built-in features add their methods (see `FeatureApi`). */
export interface CoreServer {
  /** The server's identity as given to `createServer`. */
  readonly info: ServerInfo;
  /**
   * Registers a tool. `inputSchema` is a JSON Schema (the handler's `args` typed from it:
   * write it inline or `as const`) or a Standard JSON Schema (zod 4.2+, arktype, valibot
   * through `toStandardJsonSchema`: converted once, validated by the library, `args` of its
   * output type). Arguments are validated before the handler runs. Throws a `TypeError` for a
   * bad name, a duplicate, an input schema that does not describe an object, a JSON Schema
   * whose keywords the meta-schema refuses (`type: "strnig"`), an unsupported `$schema`, or
   * anything that is neither kind of schema. JSON Schemas are compiled on the tool's first
   * call (cold start), so what only a compiler finds (an unresolvable `$ref`) is reported then
   * (-32603, and through the logger); `ready()` finds it sooner.
   */
  tool<const I extends ToolInputSchemaLike, const O extends ToolOutputSchemaLike | undefined = undefined>(
    definition: ToolDefinition<I, O>,
    handler: ToolHandler<I, O>,
  ): ToolHandle;
  /** Registers a lazy tool: listed from its definition, its handler loaded by `load()` on the first call. */
  tool<const I extends ToolInputSchemaLike, const O extends ToolOutputSchemaLike | undefined = undefined>(definition: LazyToolDefinition<I, O>): ToolHandle;
  /** Unregisters a tool; false when there was none. */
  removeTool(name: string): boolean;
  /** Enables or disables a tool by name; false when there is none. */
  enableTool(name: string, enabled?: boolean): boolean;
  /** Adds an extension (see `ServerExtension`). Ids are unique. Sessions initialized earlier do not negotiate it. */
  use(extension: ServerExtension): void;
  /** Serves one session over `transport` until either side closes it. */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession>;
  /** The live sessions. */
  sessions(): readonly ServerSession[];
  /** Name, version, latest protocol version and the names of the tools served (for start-up banners). */
  summary(): ServerSummary;
  /**
   * Sets where this server logs when it was created without a `logger` (a server with one
   * ignores this). `serveStdio` passes its stderr logger, so a throwing handler leaves a trace.
   */
  fallbackLogger(logger: Logger): void;
  /**
   * Compiles the schemas of every tool registered so far now, instead of on each tool's first
   * call, and resolves when done. Rejects with a `TypeError` naming the tool when ajv cannot
   * compile a schema: await it after registration for registration-time certainty (it costs
   * ajv's import and compilation, ~100 ms + ~10 ms a tool, at start-up).
   */
  ready(): Promise<void>;
  /**
   * The scopes a request needs before it is delivered: for `tools/call` of a tool that
   * declares `scopes`, those; otherwise undefined. HTTP handlers use it to answer 403
   * `insufficient_scope` first; the server enforces the same rule again at call time.
   */
  scopesFor(request: JsonRpcRequest): readonly string[] | undefined;
  /**
   * True when `request` may run again on a surviving instance after the one running it died
   * (pass as the HTTP handler's `shared.repeatable`): every request but `tools/call`, and calls
   * of tools annotated `idempotentHint` or `readOnlyHint` or listed in `repeatableTools`.
   */
  repeatable(request: { readonly method: string; readonly params?: unknown }): boolean;
  /** Closes every session; later `connect` calls reject. */
  close(): Promise<void>;
}

/** A server: the core plus the methods of the built-in features (resources, prompts, ...). */
export interface Server extends CoreServer, FeatureApi {}
