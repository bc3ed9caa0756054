/**
 * `@proto/mcp-apps/verify`: checks the MCP Apps side of a server the way a host would see it
 * (runtime-neutral: a server object is connected in memory, or pass any `Transport`). For
 * modules and stdio commands use `@proto/mcp-apps/node`; for a terminal, `proto-apps verify`.
 */
export { verify } from "./verify-run";
export type { Connectable, VerifyTarget, VerifyOptions } from "./verify-run";
export { VerifyCheck } from "./verify-types";
export type { VerifyFinding, VerifyCheckResult, VerifyReport } from "./verify-types";
export { formatVerifyReport } from "./verify-format";
