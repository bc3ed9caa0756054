/**
 * The tools feature (MCP 2025-11-25, server/tools): the registry behind `server.tool()`,
 * `tools/list` (paginated, cached, decorated per session by extensions) and `tools/call`.
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { ListToolsResult, Tool } from "@proto/mcp-protocol";
import type { AnyFeature, FeatureHost } from "./feature";
import type { Page } from "./pagination";
import { negotiatedOf } from "./session-context";
import { callTool, scopesForCall } from "./tool-call";
import type { ToolCallHost, UnauthenticatedScopes } from "./tool-call";
import type { ToolRecord } from "./tool-registry";
import { createToolRecord, prepareRecord } from "./tool-registry";
import type { LazyToolDefinition, ToolDefinition, ToolHandle, ToolHandler } from "./tool-types";
import type { TaskMode } from "./tasks/call";
import type { ToolCallWrapper } from "./tasks/feature";
import type { SchemaCompiler } from "./validation";

/** What the tools feature needs besides the feature host. */
export interface ToolsOptions {
  readonly compiler: SchemaCompiler;
  readonly unauthenticatedScopes: UnauthenticatedScopes;
  /** Runs every `tools/call` through the tasks feature (present when the server serves tasks). */
  readonly wrapCall?: ToolCallWrapper;
}

function cursorOf(params: JsonRpcParams | undefined): unknown {
  return params !== undefined && !Array.isArray(params) ? (params as { cursor?: unknown }).cursor : undefined;
}

/** Creates the tools feature and the registry operations the server exposes. */
export function createTools(host: FeatureHost, options: ToolsOptions) {
  const records = new Map<string, ToolRecord>();
  const active = (r: ToolRecord | undefined): r is ToolRecord => r !== undefined && r.served && r.enabled;
  const list = host.createList<Tool>({
    kind: "tools",
    build: () => [...records.values()].filter(active).map((r) => r.descriptor),
    key: (tool) => tool.name,
    notification: "notifications/tools/list_changed",
    notifies: (session) => session.serverCapabilities?.tools?.listChanged === true,
  });
  const results = new WeakMap<Page<Tool>, ListToolsResult>();
  const callHost: ToolCallHost = {
    lookup: (name) => {
      const record = records.get(name);
      return active(record) ? record : undefined;
    },
    logger: host.logger,
    unauthenticatedScopes: options.unauthenticatedScopes,
  };

  const feature: AnyFeature = {
    name: "tools",
    capabilities: () => (records.size > 0 ? { tools: { listChanged: true } } : undefined),
    requests: {
      "tools/list": (params, ctx) => {
        const page = list.page(cursorOf(params), negotiatedOf(ctx));
        let result = results.get(page);
        if (result === undefined) {
          result = Object.freeze(page.nextCursor === undefined ? { tools: page.items } : { tools: page.items, nextCursor: page.nextCursor });
          results.set(page, result);
        }
        return result;
      },
      "tools/call":
        options.wrapCall === undefined
          ? (params, ctx) => callTool(callHost, params, ctx)
          : (params, ctx) => options.wrapCall?.(params, ctx, (c) => callTool(callHost, params, c)),
    },
  };

  function release(record: ToolRecord): void {
    record.input.release();
    record.output?.release();
  }

  function setEnabled(name: string, enabled: boolean): boolean {
    const record = records.get(name);
    if (record === undefined) return false;
    if (record.enabled !== enabled) {
      record.enabled = enabled;
      if (record.served) list.invalidate();
    }
    return true;
  }

  function remove(name: string): boolean {
    const record = records.get(name);
    if (record === undefined) return false;
    records.delete(name);
    release(record);
    if (record.served && record.enabled) list.invalidate();
    host.registry.removed({ kind: "tools", item: record.descriptor });
    return true;
  }

  function add(def: ToolDefinition | LazyToolDefinition, handler: ToolHandler | undefined): ToolHandle {
    if (records.has(def?.name)) throw new TypeError(`tool("${def.name}"): a tool with this name is already registered; remove it first`);
    const support = def?.execution?.taskSupport;
    if (options.wrapCall === undefined && (support === "optional" || support === "required")) {
      throw new TypeError(`tool("${def.name}"): execution.taskSupport "${support}" needs tasks: createServer(info, { tasks: {} })`);
    }
    const record = createToolRecord(def, handler, options.compiler);
    const entry = { kind: "tools", item: record.descriptor } as const;
    try {
      host.registry.registering(entry);
    } catch (error) {
      release(record);
      throw error;
    }
    records.set(record.name, record);
    if (active(record)) list.invalidate();
    host.registry.registered(entry);
    return {
      name: record.name,
      get active() {
        return records.get(record.name) === record && active(record);
      },
      enable: () => void (records.get(record.name) === record && setEnabled(record.name, true)),
      disable: () => void (records.get(record.name) === record && setEnabled(record.name, false)),
      remove: () => void (records.get(record.name) === record && remove(record.name)),
    };
  }

  return {
    feature,
    add,
    remove,
    setEnabled,
    /** Names of the tools served over MCP now, in registration order. */
    names: (): string[] => list.items().map((t) => t.name),
    scopesFor: (params: unknown) => scopesForCall(callHost, params),
    /** How a served tool takes part in tasks, or undefined when it is not served. */
    taskModeOf: (name: string): TaskMode | undefined => {
      const record = callHost.lookup(name);
      if (record === undefined) return undefined;
      return { support: record.descriptor.execution?.taskSupport ?? "forbidden", start: record.taskStart };
    },
    /**
     * True when the tool `params.name` names is safe to run again after the instance running it
     * died: annotated `idempotentHint` or `readOnlyHint`, or listed in `extra`.
     */
    repeatable: (params: unknown, extra: readonly string[] | undefined): boolean => {
      const name = (params as { name?: unknown } | null | undefined)?.name;
      if (typeof name !== "string") return false;
      const annotations = callHost.lookup(name)?.descriptor.annotations;
      return annotations?.idempotentHint === true || annotations?.readOnlyHint === true || extra?.includes(name) === true;
    },
    /** The input schema of a served tool, or undefined. */
    schemaOf: (name: string): object | undefined => callHost.lookup(name)?.descriptor.inputSchema,
    /** Compiles every registered tool's validators now; rejects with the first schema's `TypeError`. */
    ready: (): Promise<void> => Promise.all([...records.values()].map(prepareRecord)).then(() => undefined),
  };
}
