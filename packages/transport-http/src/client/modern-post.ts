/**
 * POSTs of the 2026-07-28 Streamable HTTP wire (basic/transports/streamable-http): one
 * request per POST with `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the
 * `Mcp-Param-*` headers; no session, no standalone stream, no resumption. An error status
 * whose body is a JSON-RPC error is that request's answer (a -32022 names the versions the
 * server speaks, a -32020 asks for a re-list): it is delivered to the sink like any response.
 * Cancelling a request closes its stream (the modern cancellation over HTTP); nothing is sent.
 */
import type { JsonRpcFailure, JsonRpcId, JsonRpcMessage, JsonRpcRequest } from "@proto/jsonrpc";
import { encode, isNotification } from "@proto/jsonrpc";
import type { ClientCore } from "./client-core";
import type { ToolHeaders } from "./tool-headers";
import { consumeAnswer } from "./answers";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { discardBody, errorFromResponse } from "./response-body";
import { isEventStream } from "./resumable-stream";
import { standardHeaders } from "./request-headers";
import { MediaType } from "../shared/headers";

/** The modern half of a client transport. */
export interface ModernPoster {
  /** POSTs one modern request; resolves once its answer is being consumed (or was delivered as an error). */
  post(message: JsonRpcRequest, version: string): Promise<void>;
  /** Ends the in-flight request `requestId` by closing its stream; false when no such request is in flight. */
  cancel(message: JsonRpcMessage): boolean;
}

/** The request id a `notifications/cancelled` names, or undefined for any other message. */
export function cancelledId(message: JsonRpcMessage): JsonRpcId | undefined {
  if (!isNotification(message) || message.method !== "notifications/cancelled") return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** Creates the modern poster of one transport; `toolHeaders` holds the `x-mcp-header` bindings it learned. */
export function createModernPoster(core: ClientCore, toolHeaders: ToolHeaders): ModernPoster {
  const inFlight = new Map<JsonRpcId, AbortController>();
  // One listener for every POST: closing the transport aborts what is in flight. (A listener per
  // POST on the one long-lived signal cost an add and a remove per request, O(listeners) each.)
  core.signal.addEventListener("abort", () => {
    for (const aborter of inFlight.values()) aborter.abort(core.signal.reason);
  }, { once: true });

  function deliverError(id: JsonRpcId, error: HttpClientError): boolean {
    const rpc = error.rpcError;
    if (rpc === undefined) return false;
    const failure: JsonRpcFailure = { jsonrpc: "2.0", id, error: { ...rpc, data: rpc.data ?? { status: error.status } } };
    core.deliver({ ok: true, payload: failure, invalid: [] });
    return true;
  }

  async function post(message: JsonRpcRequest, version: string): Promise<void> {
    const aborter = new AbortController();
    if (core.signal.aborted) aborter.abort(core.signal.reason);
    inFlight.set(message.id, aborter);
    const done = (): void => {
      if (inFlight.get(message.id) === aborter) inFlight.delete(message.id);
    };
    try {
      const headers = Object.assign(core.postHeaders(true), standardHeaders(message, version));
      if (message.method === "tools/call") Object.assign(headers, toolHeaders.headersFor(message));
      const response = await core.request({ method: "POST", url: core.url, headers, body: encode(message), signal: aborter.signal });
      if (!response.ok) {
        const error = await errorFromResponse("POST", core.url, response);
        if (deliverError(message.id, error)) return done();
        throw error;
      }
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (!isEventStream(response) && !type.startsWith(MediaType.Json)) {
        await discardBody(response);
        throw new HttpClientError(HttpClientFaultCode.BadResponse, `POST ${core.url.href} answered with content type "${type}", neither JSON nor SSE: is this an MCP endpoint?`);
      }
      const transform = message.method === "tools/list"
        ? (payload: Parameters<ToolHeaders["filterList"]>[0]) => toolHeaders.filterList(payload, message.id, (rejected) => core.emit({ type: "tool-rejected", ...rejected }))
        : undefined;
      void consumeAnswer(core, response, [message.id], { resumable: false, signal: aborter.signal, ...(transform === undefined ? {} : { transform }) }).finally(done);
    } catch (error) {
      done();
      if (aborter.signal.aborted && !core.signal.aborted) return;
      throw error;
    }
  }

  return {
    post,
    cancel(message) {
      const id = cancelledId(message);
      const aborter = id === undefined ? undefined : inFlight.get(id);
      if (aborter === undefined || id === undefined) return false;
      inFlight.delete(id);
      aborter.abort(new Error(`request ${String(id)} was cancelled`));
      return true;
    },
  };
}
