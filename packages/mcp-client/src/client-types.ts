/**
 * The public shape of a client: `ClientOptions` for `createClient`, and `Client`, one
 * connection's worth of MCP for a host (MCP 2025-11-25, the client side of every server
 * feature). Types only; `client.ts` builds one.
 */
import type { Logger, Transport } from "@proto/jsonrpc";
import type {
  CallToolResult,
  ClientRequestMap,
  ClientRequestMethod,
  CompleteRequestParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  JsonObject,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  LoggingLevel,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  Tool,
} from "@proto/mcp-protocol";
import type { BackoffOptions } from "./backoff";
import type { EraMemory, ProtocolChoice } from "./era";
import type { CallToolsOptions, ToolCall, ToolCallOutcome } from "./call-tools";
import type { ConnectionState, TransportFactory } from "./connection";
import type { On } from "./emitter";
import type { ClientEvents } from "./events";
import type { ElicitationHandler, RootsLister, SamplingHandler } from "./handler-types";
import type { ClientObserver } from "./observer";
import type { RequestOptions } from "./request-options";
import type { ServerDetails } from "./session";
import type { CallToolAsTaskOptions, TaskClientOptions, ToolTask } from "./task-types";

/** Options of `createClient`. Everything but `info` is optional. */
export interface ClientOptions {
  /** The client's `clientInfo`: name, version, and optionally title, icons, website. */
  readonly info: Implementation;
  /** Makes a fresh transport per connect attempt; enables `connect()` without a transport, lazy connect and reconnect. */
  readonly transport?: TransportFactory;
  /** Milliseconds for transport creation plus the handshake. Default 30,000. */
  readonly connectTimeoutMs?: number;
  /** Retries after a failed connect (factory only) and the backoff between them. Default 3 retries, 250 ms doubling, full jitter. */
  readonly reconnect?: BackoffOptions & { readonly retries?: number };
  /** Default timeout of each request in milliseconds (0: none). Default 60,000. */
  readonly requestTimeoutMs?: number;
  /** Default cap on a request's total duration, which progress never extends (0: none). Default none. */
  readonly maxTotalTimeoutMs?: number;
  /**
   * Which protocol era to speak. `"auto"` (the default) probes with `server/discover`: a server
   * that speaks 2026-07-28 gets the stateless wire, any other gets `initialize`.
   * `"2026-07-28"` speaks only the stateless wire; `"2025-11-25"` only the `initialize` era (no probe).
   */
  readonly protocol?: ProtocolChoice;
  /** The `initialize`-era version to ask for first. Default the latest (`2025-11-25`). */
  readonly protocolVersion?: string;
  /**
   * The `server/discover` probe of `protocol: "auto"`: `{ timeoutMs }` sets its timeout (default 5,000);
   * `false` without a `protocol` means `protocol: "2025-11-25"`. With `protocol: "2026-07-28"` the
   * `server/discover` that opens the connection waits up to `connectTimeoutMs` instead.
   */
  readonly probe?: boolean | { readonly timeoutMs?: number };
  /**
   * Names the server, so that what a probe learned is shared by every client that reaches it in
   * this process (`eraMemory`, default one process-wide memory). Default: the transport's own
   * `serverKey`, read on each connect attempt (the stdio transport's command line, the HTTP
   * transports' origin); a transport without one (in-memory) keeps verdicts in its client.
   */
  readonly serverKey?: string;
  /** Where verdicts are kept under the server key (to persist them, or to keep them apart). Default a process-wide memory. */
  readonly eraMemory?: EraMemory;
  /** Polling bounds of tool calls run as tasks, and whether 2026-07-28 tasks are watched on `subscriptions/listen` too. */
  readonly tasks?: TaskClientOptions;
  /** Most `input_required` rounds one 2026-07-28 call may take before it is abandoned. Default 10. */
  readonly maxInputRounds?: number;
  /** Offer roots: a fixed list (change it with `setRoots`) or a function called on each `roots/list`. */
  readonly roots?: readonly Root[] | RootsLister;
  /** Offer sampling. */
  readonly sampling?: SamplingHandler;
  /** Offer elicitation (form and/or URL mode). */
  readonly elicitation?: ElicitationHandler;
  /** Extensions the client supports, by identifier (`capabilities.extensions`). */
  readonly extensions?: { readonly [name: string]: JsonObject };
  /** Experimental capabilities (`capabilities.experimental`). */
  readonly experimental?: { readonly [name: string]: JsonObject };
  /** Check `structuredContent` against each tool's `outputSchema`. Default true. */
  readonly validateToolOutput?: boolean;
  /** Refuse calls the server did not declare a capability for. Default true. */
  readonly enforceCapabilities?: boolean;
  /** Most pages a `listAll*` or iterator follows. Default 1,000. */
  readonly maxPages?: number;
  /** Observability hooks. */
  readonly observer?: ClientObserver;
  /** Where warnings and handler failures go. Default: nowhere. */
  readonly logger?: Logger;
}

/** Options of `callTool`. */
export interface CallToolOptions extends RequestOptions {
  /** Check `structuredContent` against the tool's `outputSchema`. Default: the client's `validateToolOutput`. */
  readonly validateOutput?: boolean;
}

/** Options of the `listAll*` methods. */
export interface ListAllOptions extends RequestOptions {
  /** Fetch again even when a cached list exists. */
  readonly refresh?: boolean;
}

/** An MCP client. Create one with `createClient` (or `connect`); close it with `close()`. */
export interface Client {
  /** Where the client stands. */
  readonly state: ConnectionState;
  /** The server of the current connection, or `undefined` when not connected. */
  readonly server: ServerDetails | undefined;
  /** Registers a listener; returns the function that removes it. */
  readonly on: On<ClientEvents>;
  /** Connects with `transport`, or through the `transport` factory when none is given. Resolves once initialized. */
  connect(transport?: Transport): Promise<ServerDetails>;
  /** Closes the connection and the client for good; pending requests reject with `CLOSED`. Idempotent. */
  close(): Promise<void>;

  /** `ping`: resolves when the server answers. */
  ping(options?: RequestOptions): Promise<void>;
  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: RequestOptions): Promise<ListToolsResult>;
  /** Every tool, page by page, as an async iterator. */
  tools(options?: RequestOptions): AsyncIterable<Tool>;
  /** Every tool, cached until `notifications/tools/list_changed` or a reconnect. */
  listAllTools(options?: ListAllOptions): Promise<readonly Tool[]>;
  /**
   * `tools/call`. A tool failure is returned (`isError: true`); a protocol failure rejects.
   * A call that runs as a task (a 2025-11-25 tool whose `taskSupport` is `"required"`, or a
   * 2026-07-28 server's choice) is driven to its result: polled, its input requests answered,
   * cancelled on the caller's `signal`. `timeoutMs` applies to each request of the task.
   */
  callTool(name: string, args?: { readonly [key: string]: unknown }, options?: CallToolOptions): Promise<CallToolResult>;
  /** Like `callTool`, but rejects with `ToolCallError` when the result has `isError: true`. */
  callToolOrThrow(name: string, args?: { readonly [key: string]: unknown }, options?: CallToolOptions): Promise<CallToolResult>;
  /**
   * Starts `tools/call` as a task where the server allows one (2025-11-25: the server's
   * `tasks.requests.tools.call` and the tool's `taskSupport`; 2026-07-28: the server decides) and
   * resolves, once the server answered, with the handle: `taskId`, `task`, `on("status")`,
   * `result()`, `cancel()`, `detach()`. A call the server answered directly gives a handle with
   * no `taskId` whose `result()` is that answer.
   */
  callToolAsTask(name: string, args?: { readonly [key: string]: unknown }, options?: CallToolAsTaskOptions): Promise<ToolTask>;
  /** Watches a task by id (persisted from an earlier `callToolAsTask`, maybe by another process) until it ends. The output schema is not checked. */
  resumeTask(taskId: string, options?: RequestOptions): ToolTask;
  /** Runs calls concurrently; one outcome per call, in call order (see `callTools`). */
  callTools(calls: readonly ToolCall[], options?: CallToolsOptions): Promise<ToolCallOutcome<CallToolResult>[]>;

  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: RequestOptions): Promise<ListResourcesResult>;
  /** Every resource, page by page. */
  resources(options?: RequestOptions): AsyncIterable<Resource>;
  /** Every resource, cached until `notifications/resources/list_changed` or a reconnect. */
  listAllResources(options?: ListAllOptions): Promise<readonly Resource[]>;
  /** One page of `resources/templates/list`. */
  listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<ListResourceTemplatesResult>;
  /** Every resource template, page by page. */
  resourceTemplates(options?: RequestOptions): AsyncIterable<ResourceTemplate>;
  /** Every resource template, cached like `listAllResources`. */
  listAllResourceTemplates(options?: ListAllOptions): Promise<readonly ResourceTemplate[]>;
  /** `resources/read`. */
  readResource(uri: string, options?: RequestOptions): Promise<ReadResourceResult>;
  /** `resources/subscribe`; `resourceUpdated` events follow. Renewed after a reconnect. */
  subscribe(uri: string, options?: RequestOptions): Promise<void>;
  /** `resources/unsubscribe`. */
  unsubscribe(uri: string, options?: RequestOptions): Promise<void>;

  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: RequestOptions): Promise<ListPromptsResult>;
  /** Every prompt, page by page. */
  prompts(options?: RequestOptions): AsyncIterable<Prompt>;
  /** Every prompt, cached until `notifications/prompts/list_changed` or a reconnect. */
  listAllPrompts(options?: ListAllOptions): Promise<readonly Prompt[]>;
  /** `prompts/get`. */
  getPrompt(name: string, args?: { readonly [name: string]: string }, options?: RequestOptions): Promise<GetPromptResult>;
  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteRequestParams, options?: RequestOptions): Promise<CompleteResult>;
  /** `logging/setLevel`; `log` events follow. Restored after a reconnect. */
  setLoggingLevel(level: LoggingLevel, options?: RequestOptions): Promise<void>;

  /** Replaces the roots (the client must have been created with `roots`) and notifies the server. */
  setRoots(roots: readonly Root[]): Promise<void>;
  /** Sends `notifications/roots/list_changed` (when the roots function's answer changed). */
  notifyRootsChanged(): Promise<void>;

  /** Any request, typed for MCP methods (tasks, extension methods). Capability checks and options apply. */
  request<M extends ClientRequestMethod>(method: M, params: ClientRequestMap[M]["params"], options?: RequestOptions): Promise<ClientRequestMap[M]["result"]>;
  /** Any notification to the server. */
  notify(method: string, params?: { readonly [key: string]: unknown }): Promise<void>;
  /** Handles a server notification the client does not handle itself (an extension's); returns the unregister function. */
  handleNotification(method: string, handler: (params: { readonly [key: string]: unknown } | undefined) => void): () => void;
}
