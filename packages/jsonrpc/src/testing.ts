/**
 * `@proto/jsonrpc/testing`: helpers for tests of code built on the jsonrpc seam.
 */
export { createMemoryTransportPair } from "./memory-transport";
export type { MemoryTransportOptions } from "./memory-transport";
