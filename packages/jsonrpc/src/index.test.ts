import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as testing from "./testing";
// The type exports: the workspace type check fails when one of them goes away or is renamed.
import type {
  CancellationProtocol,
  DecodeLimits,
  DecodeResult,
  Exchange,
  ExchangeInfo,
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcPayload,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  Logger,
  NotificationContext,
  NotificationHandler,
  NotifyOptions,
  Peer,
  PeerOptions,
  Principal,
  RequestContext,
  RequestHandler,
  RequestOptions,
  SingleRequestOwner,
  SingleRequestTransport,
  SingleResponder,
  TrackedRequest,
  Transport,
  TransportSink,
} from "./index";
import type { MemoryTransportOptions } from "./testing";

export type PinnedTypes = [
  CancellationProtocol,
  DecodeLimits,
  DecodeResult,
  Exchange,
  ExchangeInfo,
  JsonRpcErrorObject,
  JsonRpcFailure,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcPayload,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  Logger,
  NotificationContext,
  NotificationHandler,
  NotifyOptions,
  Peer,
  PeerOptions,
  Principal,
  RequestContext,
  RequestHandler,
  RequestOptions,
  SingleRequestOwner,
  SingleRequestTransport,
  SingleResponder,
  TrackedRequest,
  Transport,
  TransportSink,
  MemoryTransportOptions,
];

describe("public surface", () => {
  it("pins the runtime exports of @proto/jsonrpc", () => {
    expect(Object.keys(root).sort()).toEqual(
      [
        "DEFAULT_MAX_BATCH",
        "DEFAULT_MAX_DEPTH",
        "DEFAULT_MAX_ID_LENGTH",
        "DEFAULT_MAX_MESSAGE_BYTES",
        "DEFAULT_REQUEST_TIMEOUT_MS",
        "ErrorCode",
        "FaultCode",
        "JsonRpcError",
        "JsonRpcErrorCode",
        "JsonRpcFaultCode",
        "RequestError",
        "TransportError",
        "abortSingleRequest",
        "brandError",
        "checkLimit",
        "createPeer",
        "createSingleResponder",
        "decode",
        "deliverFrame",
        "encode",
        "encodeOnce",
        "hasErrorBrand",
        "isBatch",
        "isDepthWithin",
        "isFailure",
        "isJsonRpcError",
        "isNotification",
        "isRequest",
        "isRequestError",
        "isResponse",
        "isSingleRequestTransport",
        "isSuccess",
        "isTransportError",
        "redactedJson",
        "refuseOversized",
        "resolveLimits",
        "traceTransport",
      ].sort(),
    );
  });

  it("pins the runtime exports of @proto/jsonrpc/testing", () => {
    expect(Object.keys(testing).sort()).toEqual(["createMemoryTransportPair"]);
  });

  it("pins the defaults named in DESIGN.md", () => {
    expect(root.DEFAULT_MAX_MESSAGE_BYTES).toBe(4 * 1024 * 1024);
    expect(root.DEFAULT_MAX_DEPTH).toBe(64);
    expect(root.DEFAULT_MAX_BATCH).toBe(100);
    expect(root.DEFAULT_REQUEST_TIMEOUT_MS).toBe(60_000);
  });
});
