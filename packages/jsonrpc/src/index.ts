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
export { ErrorCode, FaultCode, JsonRpcError, TransportError, RequestError } from "./errors";
export type { Principal, ExchangeInfo, Exchange, TransportSink, Transport } from "./transport";
export type {
  Logger,
  RequestContext,
  NotificationContext,
  RequestHandler,
  NotificationHandler,
  RequestOptions,
  NotifyOptions,
  CancellationProtocol,
  PeerOptions,
  Peer,
} from "./peer-types";
