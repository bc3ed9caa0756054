/**
 * The prompts feature (MCP 2025-11-25, server/prompts): `prompts/list` (paginated, cached,
 * decorated by extensions), `prompts/get` with declared arguments checked before the handler
 * runs (-32602 for an unknown prompt, a missing required argument, an undeclared one, or a
 * value that is not a string), and `notifications/prompts/list_changed`.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import { NotificationMethod, RequestMethod } from "@proto/mcp-protocol";
import type { GetPromptResult, Prompt } from "@proto/mcp-protocol";
import type { Completer } from "../completions/types";
import type { RequestContext } from "../context";
import type { Feature, FeatureHost } from "../feature";
import { checkIcons, checkOptionalText, checkText, pick } from "../resources/checks";
import { isStandardSchema } from "../schema-source";
import type { StandardJsonSchemaProps } from "../standard-schema";
import { negotiatedOf } from "../session-context";
import { toPromptResult } from "./messages";
import { readPromptSchema, validatePromptArguments } from "./schema-arguments";
import type { PromptArgumentDefinition, PromptArgumentsLike, PromptDefinition, PromptHandle, PromptHandler } from "./types";

interface PromptRecord {
  readonly descriptor: Prompt;
  readonly declared: ReadonlyMap<string, PromptArgumentDefinition>;
  readonly complete: ReadonlyMap<string, Completer>;
  /** The library's validator when the arguments were given as a Standard JSON Schema. */
  readonly standard: StandardJsonSchemaProps | undefined;
  readonly handler: PromptHandler;
}

function invalid(message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, message, data);
}

function createRecord(def: PromptDefinition<PromptArgumentsLike>, handler: PromptHandler): PromptRecord {
  if (typeof def !== "object" || def === null) throw new TypeError("prompt(definition, handler): pass { name, arguments?, ... } and a handler");
  const where = `prompt("${String(def.name)}")`;
  checkText(def.name, "name", where);
  checkOptionalText(def.title, "title", where);
  checkOptionalText(def.description, "description", where);
  checkIcons(def.icons, where);
  if (typeof handler !== "function") throw new TypeError(`${where}: pass a handler function as the second argument`);
  const declared = new Map<string, PromptArgumentDefinition>();
  const schema = isStandardSchema(def.arguments) ? readPromptSchema(def.arguments, where) : undefined;
  const list = schema?.declared ?? (def.arguments as readonly PromptArgumentDefinition[] | undefined) ?? [];
  if (!Array.isArray(list)) throw new TypeError(`${where}: arguments must be a list of { name, required? } or a Standard JSON Schema (zod, valibot, arktype)`);
  for (const arg of list) {
    checkText(arg?.name, "every argument's name", where);
    if (declared.has(arg.name)) throw new TypeError(`${where}: argument "${arg.name}" is declared twice`);
    declared.set(arg.name, arg);
  }
  const complete = new Map<string, Completer>();
  for (const [name, completer] of Object.entries((def.complete ?? {}) as Record<string, Completer | undefined>)) {
    if (completer === undefined) continue;
    if (!declared.has(name)) throw new TypeError(`${where}: complete.${name} names no declared argument`);
    if (typeof completer !== "function" && !Array.isArray(completer)) throw new TypeError(`${where}: complete.${name} must be a function or an array of strings`);
    complete.set(name, completer);
  }
  const args = [...declared.values()].map((a) => pick(a, ["name", "title", "description", "required"]));
  const descriptor: Prompt = { ...pick(def, ["name", "title", "description", "icons", "_meta"]), ...(args.length > 0 ? { arguments: args } : {}) };
  return { descriptor: Object.freeze(descriptor), declared, complete, standard: schema?.standard, handler };
}

function checkArguments(record: PromptRecord, given: unknown): Record<string, string> {
  const name = record.descriptor.name;
  if (given !== undefined && (typeof given !== "object" || given === null || Array.isArray(given))) {
    throw invalid(`prompts/get "${name}": arguments must be an object of strings`);
  }
  const args = (given ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(args)) {
    if (!record.declared.has(key)) {
      throw invalid(`prompts/get "${name}": unexpected argument "${key}"; declared: ${[...record.declared.keys()].join(", ") || "none"}`, { argument: key });
    }
    if (typeof value !== "string") throw invalid(`prompts/get "${name}": argument "${key}" must be a string`, { argument: key });
    out[key] = value;
  }
  const missing = [...record.declared.values()].filter((a) => a.required === true && !Object.hasOwn(out, a.name)).map((a) => a.name);
  if (missing.length > 0) throw invalid(`prompts/get "${name}": missing required argument${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, { missing });
  return out;
}

/** Creates the prompts feature and the registry operations the server exposes. */
export function createPrompts(host: FeatureHost) {
  const records = new Map<string, PromptRecord>();
  const list = host.createList<Prompt>({
    kind: "prompts",
    build: () => [...records.values()].map((r) => r.descriptor),
    key: (p) => p.name,
    notification: NotificationMethod.PromptListChanged,
    notifies: (session) => session.serverCapabilities?.prompts?.listChanged === true,
  });

  async function get(params: JsonRpcParams | undefined, ctx: RequestContext): Promise<GetPromptResult> {
    const p = (params !== undefined && !Array.isArray(params) ? params : {}) as { name?: unknown; arguments?: unknown };
    if (typeof p.name !== "string") throw invalid("prompts/get needs params.name, a string");
    const record = records.get(p.name);
    if (record === undefined) throw invalid(`Unknown prompt "${p.name}"; list them with prompts/list`, { name: p.name });
    const checked = checkArguments(record, p.arguments);
    const args = record.standard === undefined ? checked : await validatePromptArguments(record.standard, checked, record.descriptor.name);
    const value = await record.handler(args as never, ctx);
    return toPromptResult(value, record.descriptor.description, `prompt "${record.descriptor.name}" handler`);
  }

  const feature: Feature = {
    name: "prompts",
    capabilities: () => (records.size > 0 ? { prompts: { listChanged: true } } : undefined),
    requests: {
      [RequestMethod.PromptsList]: (params, ctx) => {
        const cursor = params !== undefined && !Array.isArray(params) ? (params as { cursor?: unknown }).cursor : undefined;
        const page = list.page(cursor, negotiatedOf(ctx));
        return page.nextCursor === undefined ? { prompts: page.items } : { prompts: page.items, nextCursor: page.nextCursor };
      },
      [RequestMethod.PromptsGet]: get,
    },
  };

  // prompts with a completer, counted: the completions capability is read per modern request
  let completing = 0;

  function remove(name: string): boolean {
    const record = records.get(name);
    if (record === undefined) return false;
    records.delete(name);
    if (record.complete.size > 0) completing--;
    list.invalidate();
    host.registry.removed({ kind: "prompts", item: record.descriptor });
    return true;
  }

  function add<const A extends PromptArgumentsLike>(def: PromptDefinition<A>, handler: PromptHandler<A>): PromptHandle {
    const record = createRecord(def as PromptDefinition<PromptArgumentsLike>, handler as unknown as PromptHandler);
    const name = record.descriptor.name;
    if (records.has(name)) throw new TypeError(`prompt("${name}"): a prompt with this name is already registered; remove it first`);
    host.registry.registering({ kind: "prompts", item: record.descriptor });
    records.set(name, record);
    if (record.complete.size > 0) completing++;
    list.invalidate();
    host.registry.registered({ kind: "prompts", item: record.descriptor });
    return { name, remove: () => void (records.get(name) === record && remove(name)) };
  }

  return {
    feature,
    add,
    remove,
    /** The completer of a prompt's argument; `null` when no such prompt exists. */
    completer: (name: string, argument: string): Completer | undefined | null => {
      const record = records.get(name);
      return record === undefined ? null : record.complete.get(argument);
    },
    /** True when some prompt argument has a completer. */
    completes: (): boolean => completing > 0,
  };
}
