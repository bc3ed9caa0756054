/**
 * What the client transport must remember of the MCP lifecycle passing through it
 * (MCP 2025-11-25, basic/lifecycle): the `initialize` request and `notifications/initialized`
 * it saw go out (to replay them when the session expires), and the protocol version the
 * server chose (to send as `MCP-Protocol-Version` on every later request).
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcNotification, JsonRpcPayload, JsonRpcRequest } from "@proto/jsonrpc";
import { isNotification, isRequest, isSuccess } from "@proto/jsonrpc";
import { LifecycleMethod } from "../shared/headers";

/** The messages of a payload, a batch or not. */
export function messagesOf(payload: JsonRpcPayload): readonly JsonRpcMessage[] {
  return Array.isArray(payload) ? (payload as readonly JsonRpcMessage[]) : [payload as JsonRpcMessage];
}

/** True for an `initialize` request. */
export function isInitializeRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return isRequest(message) && message.method === LifecycleMethod.Initialize;
}

/** True for `notifications/initialized`. */
export function isInitializedNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return isNotification(message) && message.method === LifecycleMethod.Initialized;
}

/** The ids of the requests of a payload: the responses the server owes for it. */
export function requestIdsOf(messages: readonly JsonRpcMessage[]): JsonRpcId[] {
  const ids: JsonRpcId[] = [];
  for (const message of messages) if (isRequest(message)) ids.push(message.id);
  return ids;
}

/** The lifecycle memory of one client transport. */
export interface LifecycleMemory {
  /** The last `initialize` request seen going out. */
  readonly initialize: JsonRpcRequest | undefined;
  /** The last `notifications/initialized` seen going out. */
  readonly initialized: JsonRpcNotification | undefined;
  /** Records an outbound payload; true when it carries an `initialize` request (a new session starts). */
  observeOutbound(messages: readonly JsonRpcMessage[]): boolean;
  /** Reads an inbound payload; returns the protocol version when it holds the answer to our `initialize`. */
  observeInbound(messages: readonly JsonRpcMessage[]): string | undefined;
}

/** Creates the lifecycle memory of one transport. */
export function createLifecycleMemory(): LifecycleMemory {
  let initialize: JsonRpcRequest | undefined;
  let initialized: JsonRpcNotification | undefined;
  let awaitedId: JsonRpcId | undefined;
  return {
    get initialize() {
      return initialize;
    },
    get initialized() {
      return initialized;
    },
    observeOutbound(messages) {
      let starts = false;
      for (const message of messages) {
        if (isInitializeRequest(message)) {
          initialize = message;
          initialized = undefined;
          awaitedId = message.id;
          starts = true;
        } else if (isInitializedNotification(message)) {
          initialized = message;
        }
      }
      return starts;
    },
    observeInbound(messages) {
      if (awaitedId === undefined) return undefined;
      for (const message of messages) {
        if (!isSuccess(message) || message.id !== awaitedId) continue;
        awaitedId = undefined;
        return protocolVersionOf(message.result);
      }
      return undefined;
    },
  };
}

/** The `protocolVersion` of an `InitializeResult`, when it has a string one. */
export function protocolVersionOf(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  return typeof version === "string" ? version : undefined;
}
