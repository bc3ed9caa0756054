/**
 * `@proto/mcp-client/oauth/node`: the Node-only pieces of OAuth for CLI hosts: the loopback
 * redirect listener (RFC 8252 §7.3), a browser opener that never uses a shell, and a token
 * store in a file with mode 0600. Use them with `createOAuth` from `@proto/mcp-client/oauth`.
 */
export { createLoopbackRedirect } from "./node-loopback";
export type { LoopbackRedirectOptions } from "./node-loopback";
export { openBrowser, browserCommand } from "./node-browser";
export type { OpenBrowserOptions } from "./node-browser";
export { createFileTokenStore } from "./node-file-store";
export type { FileTokenStoreOptions } from "./node-file-store";
