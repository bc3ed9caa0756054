/**
 * Outbound request ids of a shared session: a request this replica sends to the client gets an
 * id no other replica uses (responses may come back to any instance), and a response to one is
 * claimed back with its original id.
 */
import type { JsonRpcId, JsonRpcMessage } from "@proto/jsonrpc";
import { isRequest } from "@proto/jsonrpc";
import type { SessionSharing } from "./session-types";

/** Outbound request ids a replica remembers to claim their responses (oldest forgotten first). */
const MAX_TAGGED_REQUESTS = 10_000;

/** The tagging of one session's outbound requests. */
export interface OutboundTags {
  /** `message` with the replica-unique id a request to the client gets (others, and every message of an unshared session, unchanged). */
  tag(message: JsonRpcMessage): JsonRpcMessage;
  /** The response with its original id when `message` answers a request this replica sent, else undefined. */
  claim(message: JsonRpcMessage): JsonRpcMessage | undefined;
}

/** Creates the outbound tags of a session; `sharing` undefined (one instance) tags nothing. */
export function createOutboundTags(sharing: SessionSharing | undefined): OutboundTags {
  const tagged = new Map<string, JsonRpcId>();

  /** Gives a request this replica sends an id no other replica uses (responses may come back to any instance). */
  function tag(message: JsonRpcMessage): JsonRpcMessage {
    if (sharing === undefined || !isRequest(message) || typeof message.id !== "number") return message;
    const id = `${sharing.tag}~${message.id}`;
    tagged.set(id, message.id);
    if (tagged.size > MAX_TAGGED_REQUESTS) tagged.delete(tagged.keys().next().value as string);
    return { ...message, id };
  }

  function claim(message: JsonRpcMessage): JsonRpcMessage | undefined {
    if (isRequest(message) || !("id" in message) || typeof message.id !== "string") return undefined;
    const original = tagged.get(message.id);
    if (original === undefined) return undefined;
    tagged.delete(message.id);
    return { ...message, id: original } as JsonRpcMessage;
  }

  return { tag, claim };
}
