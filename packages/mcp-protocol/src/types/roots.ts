/** Roots (MCP 2025-11-25, client/roots). */
import type { Meta, RequestParams, Result } from "./base";

/** A directory or file the client exposes; `uri` is a `file://` URI. */
export interface Root {
  readonly uri: string;
  readonly name?: string;
  readonly _meta?: Meta;
}

/** Params of `roots/list`. */
export type ListRootsRequestParams = RequestParams;

/** Result of `roots/list`. */
export interface ListRootsResult extends Result {
  readonly roots: readonly Root[];
}
