/**
 * The shape of a client's core (`core.ts`): the state and the calls the API modules share.
 */
import type { Logger } from "@proto/jsonrpc";
import type { LoggingLevel, Root } from "@proto/mcp-protocol";
import type { ClientOptions } from "./client-types";
import type { Connection } from "./connection";
import type { Emitter } from "./emitter";
import type { ClientEvents } from "./events";
import type { Listener } from "./listen";
import type { ListCaches, NotificationParamsRecord, NotificationRoute } from "./notifications";
import type { Outgoing } from "./requester";
import type { RequestOptions } from "./request-options";
import type { SchemaValidator } from "./schema-validation";
import type { InputResponder } from "./server-requests";
import type { TaskRegistry } from "./task-registry";
import type { ResolvedTaskOptions } from "./task-options";

/** What a request adds for the observer (`tools/call`). */
export type Extra = Pick<Outgoing, "tool" | "isToolError" | "track">;

/** The state the API modules share. */
export interface Core {
  readonly options: ClientOptions;
  readonly emitter: Emitter<ClientEvents>;
  readonly connection: Connection;
  readonly validator: SchemaValidator;
  readonly logger: Logger;
  readonly maxPages: number;
  readonly caches: ListCaches;
  readonly subscriptions: Set<string>;
  logLevel: LoggingLevel | undefined;
  /** The `subscriptions/listen` stream of the current 2026-07-28 session. */
  readonly listener: Listener | undefined;
  /** Sends a request: connects when needed, checks the capability, applies the options. */
  send(method: string, params: NotificationParamsRecord, options: RequestOptions | undefined, extra?: Extra): Promise<unknown>;
  /** Sends a notification on the current connection (connecting when needed). */
  notify(method: string, params?: NotificationParamsRecord): Promise<void>;
  /** Replaces the roots lister with a fixed list (`setRoots`). */
  setRoots(roots: readonly Root[]): void;
  readonly hasRoots: boolean;
  /** Adds a handler for an extension notification, on this and every later connection. */
  addNotificationHandler(method: string, handler: NotificationRoute): () => void;
  /** The running tasks (pushes, listen ids). */
  readonly tasks: TaskRegistry;
  /** Task polling bounds and push choice. */
  readonly taskOptions: ResolvedTaskOptions;
  /** Answers one input request with the client's roots, sampling or elicitation handler. */
  readonly respond: InputResponder;
}
