/**
 * @proto/jsonrpc: a batch-aware JSON-RPC 2.0 core (https://www.jsonrpc.org/specification).
 * The public surface is listed here explicitly; `index.test.ts` pins it.
 */
export type {
  JsonRpcId,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcNotification,
  JsonRpcErrorObject,
  JsonRpcSuccess,
  JsonRpcFailure,
  JsonRpcResponse,
  JsonRpcMessage,
  JsonRpcPayload,
} from "./types";
export { isRequest, isNotification, isResponse, isSuccess, isFailure, isBatch } from "./types";
export { JsonRpcErrorCode, JsonRpcFaultCode, ErrorCode, FaultCode, JsonRpcError, TransportError, RequestError, isJsonRpcError, isTransportError, isRequestError } from "./errors";
export { brandError, hasErrorBrand } from "./error-brand";
export type { Principal, ExchangeInfo, Exchange, TransportSink, Transport } from "./transport";
export type {
  Logger,
  RequestContext,
  NotificationContext,
  RequestHandler,
  NotificationHandler,
  RequestOptions,
  TrackedRequest,
  NotifyOptions,
  CancellationProtocol,
  PeerOptions,
  Peer,
} from "./peer-types";
export { decode, encode, encodeOnce, refuseOversized } from "./codec";
export type { DecodeLimits, DecodeResult } from "./codec";
export { deliverFrame } from "./frame";
export { isDepthWithin } from "./depth";
export { createPeer } from "./peer";
export { abortSingleRequest, createSingleResponder, isSingleRequestTransport } from "./peer-single";
export type { SingleRequestOwner, SingleRequestTransport, SingleResponder } from "./peer-single";
export { traceTransport, redactedJson } from "./trace";
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_BATCH,
  DEFAULT_MAX_ID_LENGTH,
  DEFAULT_REQUEST_TIMEOUT_MS,
  checkLimit,
  resolveLimits,
} from "./limits";
export type { MessageLimits } from "./limits";
