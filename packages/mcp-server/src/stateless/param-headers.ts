/**
 * `Mcp-Param-*` checks of a modern `tools/call` over HTTP (MCP 2026-07-28
 * basic/transports/streamable-http, "Custom Headers from Tool Parameters"): every parameter
 * tagged `x-mcp-header` whose value is in the arguments must arrive as its header, decoded
 * equal to the body (integers numerically); a header for an absent value, a missing one, an
 * undecodable one or a different one is -32020. Only the server knows the tools' schemas, so
 * the check lives here; the HTTP transport answers -32020 with 400.
 */
import { createHeaderMismatchError, decodeHeaderValue, headerParamsOf, headerParamText, McpHttpHeader } from "@proto/mcp-protocol";
import type { HeaderParam, HeaderParamsOf } from "@proto/mcp-protocol";

const cache = new WeakMap<object, HeaderParamsOf>();

function paramsOf(schema: object): readonly HeaderParam[] {
  let read = cache.get(schema);
  if (read === undefined) cache.set(schema, (read = headerParamsOf(schema)));
  return "params" in read ? read.params : [];
}

function same(param: HeaderParam, header: string, body: string): boolean {
  if (param.type !== "integer") return header === body;
  const n = Number(header.trim());
  return header.trim() !== "" && Number.isFinite(n) && n === Number(body);
}

/** Throws -32020 when the `Mcp-Param-*` headers disagree with the arguments of a call of the tool whose input schema is `schema`. */
export function checkParamHeaders(schema: object, args: unknown, headers: { readonly [name: string]: string | undefined }): void {
  for (const param of paramsOf(schema)) {
    const name = `${McpHttpHeader.ParamPrefix}${param.header.toLowerCase()}`;
    const raw = headers[name];
    const body = headerParamText(param, args);
    if (body === undefined) {
      if (raw !== undefined) throw createHeaderMismatchError(`Mcp-Param-${param.header} is set but the argument ${param.path.join(".")} is absent`);
      continue;
    }
    if (raw === undefined) throw createHeaderMismatchError(`Mcp-Param-${param.header} is required: the argument ${param.path.join(".")} is set`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw createHeaderMismatchError(`Mcp-Param-${param.header} has invalid characters or encoding`);
    if (!same(param, decoded, body)) throw createHeaderMismatchError(`Mcp-Param-${param.header} does not match the argument ${param.path.join(".")}`);
  }
}
