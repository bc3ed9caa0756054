/**
 * `@proto/transport-stdio`, root entry: the newline framer of the MCP stdio transport (spec
 * 2025-11-25, "Transports > stdio"). Runtime-neutral (Web APIs only); the Node transports
 * that spawn and serve processes live in `@proto/transport-stdio/node`.
 */
export { createLineDecoder, DEFAULT_MAX_LINE_BYTES } from "./line-decoder";
export type { LineDecoder, LineDecoderOptions, LineEvent } from "./line-decoder";
export { encodeLine } from "./line-encoder";
