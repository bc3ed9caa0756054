/**
 * The stable string codes of the server's local faults (listed in the package README). Wire
 * errors are `JsonRpcError`s with numeric codes (`McpErrorCode`); these never go on the wire.
 */

/** Stable string codes of the server's own faults. */
export const ServerFaultCode = {
  /** The client answered a server request with a result the spec does not allow (`MalformedResultError`). */
  MalformedResult: "MALFORMED_RESULT",
  /** The in-memory task store is full of unfinished tasks (`createMemoryTaskStore`'s `maxTasks`); the server answers -32603. */
  TaskStoreFull: "TASK_STORE_FULL",
} as const;

/** One of the server's stable fault codes. */
export type ServerFaultCode = (typeof ServerFaultCode)[keyof typeof ServerFaultCode];
