/**
 * Prompts, completions, logging and ping on the client side (MCP 2025-11-25, server/prompts,
 * server/utilities/completion, server/utilities/logging, basic/utilities/ping; on 2026-07-28
 * the log level rides in each request's envelope and ping becomes `server/discover`).
 */
import { LOGGING_LEVELS, RequestMethod, type CompleteResult, type GetPromptResult, type ListPromptsResult } from "@proto/mcp-protocol";
import type { Client } from "./client-types";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import { assertServerSupports } from "./capability-check";
import { collect, paginate } from "./lists";

type PromptsApi = Pick<Client, "listPrompts" | "prompts" | "listAllPrompts" | "getPrompt" | "complete" | "setLoggingLevel" | "ping">;

/** Builds the prompt, completion, logging and ping methods of a client. */
export function createPromptsApi(core: Core): PromptsApi {
  const listPrompts = (cursor?: string, options?: RequestOptions) => {
    if (cursor !== undefined && typeof cursor !== "string") throw new TypeError("cursor must be a string (the previous page's nextCursor)");
    return core.send(RequestMethod.PromptsList, cursor === undefined ? undefined : { cursor }, options) as Promise<ListPromptsResult>;
  };
  const prompts = (options?: RequestOptions) =>
    paginate(RequestMethod.PromptsList, async (cursor) => {
      const page = await listPrompts(cursor, options);
      return { items: page.prompts, nextCursor: page.nextCursor };
    }, core.maxPages);

  return {
    listPrompts,
    prompts,
    async listAllPrompts(options) {
      if (options?.refresh) core.caches.prompts.invalidate();
      return core.caches.prompts.get(() => collect(prompts(options)));
    },
    async getPrompt(name, args, options) {
      if (typeof name !== "string" || name === "") throw new TypeError("getPrompt(name, args): name must be a non-empty string");
      if (args !== undefined && Object.values(args).some((v) => typeof v !== "string")) {
        throw new TypeError(`getPrompt("${name}", args): prompt arguments must all be strings`);
      }
      return core.send(RequestMethod.PromptsGet, args === undefined ? { name } : { name, arguments: args }, options) as Promise<GetPromptResult>;
    },
    async complete(params, options) {
      if (typeof params?.ref?.type !== "string" || typeof params.argument?.name !== "string" || typeof params.argument.value !== "string") {
        throw new TypeError('complete(params): params must be { ref: { type: "ref/prompt", name } | { type: "ref/resource", uri }, argument: { name, value } }');
      }
      return core.send(RequestMethod.CompletionComplete, params as unknown as { readonly [key: string]: unknown }, options) as Promise<CompleteResult>;
    },
    async setLoggingLevel(level, options) {
      if (!(LOGGING_LEVELS as readonly string[]).includes(level)) throw new TypeError(`setLoggingLevel(level): level must be one of ${LOGGING_LEVELS.join(", ")}`);
      const session = await core.connection.ensure(options?.signal);
      if (session.modern === undefined) await core.send(RequestMethod.LoggingSetLevel, { level }, options);
      // 2026-07-28: the level travels in every request's envelope from now on.
      else if (core.options.enforceCapabilities !== false) assertServerSupports(session.server.capabilities, RequestMethod.LoggingSetLevel, session.server.info.name);
      core.logLevel = level;
    },
    async ping(options) {
      const session = await core.connection.ensure(options?.signal);
      // 2026-07-28 has no ping: server/discover is the cheapest request every server answers.
      await core.send(session.modern === undefined ? RequestMethod.Ping : RequestMethod.Discover, undefined, options);
    },
  };
}
