/**
 * The built-in feature modules other than tools, and the server methods they add. The
 * features engineer owns this list: add a factory to `installFeatures` and its methods'
 * types to `FeatureApi` (see "Writing a feature module" in the package README).
 */
import type { CreateMessageRequestParams, CreateMessageResult, LoggingLevel, Root } from "@proto/mcp-protocol";
import { createClientRequests } from "./client-requests/client-requests";
import type { ElicitationResult, ElicitationSchema, FormElicitation, UrlElicitation, UrlElicitationResult } from "./client-requests/elicitation-types";
import type { ListRootsOptions } from "./client-requests/roots";
import type { ClientRequestOptions } from "./client-requests/types";
import { createCompletions } from "./completions/completions";
import type { AnyFeature, FeatureHost } from "./feature";
import { createLogging } from "./logging/logging";
import { createProgressFeature } from "./progress/progress";
import { createPrompts } from "./prompts/prompts";
import type { PromptArgumentsLike, PromptDefinition, PromptHandle, PromptHandler } from "./prompts/types";
import { createResources } from "./resources/resources";
import type { ResourceDefinition, ResourceHandle, ResourceReader, ResourceTemplateDefinition, ResourceTemplateHandle, ResourceTemplateReader } from "./resources/types";
import type { ServerSession } from "./session-types";

/** Server methods added by the built-in features. */
export interface FeatureApi {
  /** Registers a resource read by `read` (listed in `resources/list`). Throws a `TypeError` for a bad definition or a duplicate URI. */
  resource(definition: ResourceDefinition, read: ResourceReader): ResourceHandle;
  /**
   * Registers an RFC 6570 resource template: `resources/read` of a URI it matches calls
   * `read` with the variables (typed from a literal template). Throws a `TypeError` for a bad
   * template or a duplicate.
   */
  resourceTemplate<const T extends string>(definition: ResourceTemplateDefinition<T>, read: ResourceTemplateReader<T>): ResourceTemplateHandle;
  /** Unregisters a resource by URI; false when there was none. */
  removeResource(uri: string): boolean;
  /** Unregisters a template by its template text; false when there was none. */
  removeResourceTemplate(uriTemplate: string): boolean;
  /** Sends `notifications/resources/updated` for `uri` to the sessions subscribed to it (only those); returns how many. */
  resourceUpdated(uri: string): number;
  /** Registers a prompt; its handler's `args` are typed from `arguments` (a list written `as const`, or a Standard JSON Schema: zod, valibot, arktype). */
  prompt<const A extends PromptArgumentsLike>(definition: PromptDefinition<A>, handler: PromptHandler<A>): PromptHandle;
  /** Unregisters a prompt; false when there was none. */
  removePrompt(name: string): boolean;
  /** Sends a log message to one session when its level lets it through (outside a request; inside one use `ctx.log`). */
  sendLog(session: ServerSession, level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Sends a log message to every initialized session whose level lets it through. */
  broadcastLog(level: LoggingLevel, data: unknown, logger?: string): void;
  /** `sampling/createMessage` to a session's client outside a request (inside one use `ctx.sample`). */
  sample(session: ServerSession, params: CreateMessageRequestParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /** Form-mode elicitation to a session's client outside a request (inside one use `ctx.elicit`). */
  elicit<const S extends ElicitationSchema>(session: ServerSession, params: FormElicitation<S>, options?: ClientRequestOptions): Promise<ElicitationResult<S>>;
  /** URL-mode elicitation to a session's client outside a request (inside one use `ctx.elicitUrl`). */
  elicitUrl(session: ServerSession, params: UrlElicitation, options?: ClientRequestOptions): Promise<UrlElicitationResult>;
  /** Sends `notifications/elicitation/complete` to the session that started URL elicitation `elicitationId`; false when unknown or gone. */
  completeElicitation(elicitationId: string): boolean;
  /** `roots/list` to a session's client outside a request (inside one use `ctx.listRoots`). */
  listRoots(session: ServerSession, options?: ListRootsOptions): Promise<readonly Root[]>;
  /** Calls `listener` when a client sends `notifications/roots/list_changed`; returns a function that stops it. */
  watchRoots(listener: (session: ServerSession) => void): () => void;
}

/** Creates the built-in features for one server. */
export function installFeatures(
  host: FeatureHost,
  options: { readonly logLevel?: LoggingLevel | undefined } = {},
): { readonly features: readonly AnyFeature[]; readonly api: FeatureApi } {
  const resources = createResources(host);
  const prompts = createPrompts(host);
  const logging = createLogging(host, options.logLevel === undefined ? {} : { defaultLevel: options.logLevel });
  const client = createClientRequests(host.logger);
  const completions = createCompletions({
    prompt: prompts.completer,
    template: resources.completer,
    any: () => prompts.completes() || resources.completes(),
  });
  const api: FeatureApi = {
    resource: resources.addResource,
    resourceTemplate: resources.addTemplate,
    removeResource: resources.removeResource,
    removeResourceTemplate: resources.removeTemplate,
    resourceUpdated: resources.updated,
    prompt: prompts.add,
    removePrompt: prompts.remove,
    sendLog: logging.api.log,
    broadcastLog: logging.api.broadcast,
    sample: client.api.sample,
    elicit: client.api.elicit,
    elicitUrl: client.api.elicitUrl,
    completeElicitation: client.api.completeElicitation,
    listRoots: client.api.listRoots,
    watchRoots: client.api.rootsChanged,
  };
  const features: AnyFeature[] = [resources.feature, prompts.feature, completions, logging.feature, createProgressFeature(host.logger), client.feature];
  return { features, api };
}
