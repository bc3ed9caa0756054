/**
 * `createClient` and `connect`: an MCP client for hosts and agent runners (MCP 2025-11-25).
 * The client talks to a `Transport` from `@proto/jsonrpc`; it never imports a transport
 * package. It owns the transports it is given or creates, and closes them on `close()`.
 */
import { NotificationMethod, type ClientRequestMap, type ClientRequestMethod } from "@proto/mcp-protocol";
import type { Transport } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import type { RequestOptions } from "./request-options";
import type { ServerDetails } from "./session";
import { createPromptsApi } from "./api-prompts";
import { createResourcesApi } from "./api-resources";
import { createToolsApi } from "./api-tools";
import { createCore } from "./core";

/**
 * Creates a client. Nothing is sent until `connect()` is called, or, when `options.transport`
 * is a factory, until the first call (lazy connect). Capabilities follow the handlers given:
 * `roots`, `sampling`, `elicitation`, plus `extensions` and `experimental` as declared.
 */
export function createClient(options: ClientOptions): Client {
  const core = createCore(options);
  const client: Client = {
    get state() {
      return core.connection.state;
    },
    get server() {
      return core.connection.session?.server;
    },
    on: core.emitter.on,
    async connect(transport?: Transport): Promise<ServerDetails> {
      return (await core.connection.connect(transport)).server;
    },
    async close() {
      await core.connection.close();
    },
    ...createToolsApi(core, () => client),
    ...createResourcesApi(core),
    ...createPromptsApi(core),
    async setRoots(roots) {
      core.setRoots(roots);
      if (core.connection.session !== undefined) await client.notifyRootsChanged();
    },
    async notifyRootsChanged() {
      if (!core.hasRoots) throw new TypeError("notifyRootsChanged(): create the client with a `roots` option first");
      await core.notify(NotificationMethod.RootsListChanged);
    },
    request<M extends ClientRequestMethod>(method: M, params: ClientRequestMap[M]["params"], requestOptions?: RequestOptions) {
      if (typeof method !== "string") throw new TypeError("request(method, params): method must be a string");
      return core.send(method, params as { readonly [key: string]: unknown } | undefined, requestOptions) as Promise<ClientRequestMap[M]["result"]>;
    },
    notify: (method, params) => {
      if (typeof method !== "string") throw new TypeError("notify(method, params): method must be a string");
      return core.notify(method, params);
    },
    handleNotification: (method, handler) => core.addNotificationHandler(method, handler),
  };
  return client;
}

/**
 * Creates a client and connects it over `transport`; resolves once the server is
 * initialized. The client owns the transport: `client.close()` closes it.
 */
export async function connect(transport: Transport, options: ClientOptions): Promise<Client> {
  const client = createClient(options);
  await client.connect(transport);
  return client;
}
