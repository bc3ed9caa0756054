/**
 * `@proto/mcp-apps/node`: MCP Apps verification of servers in modules and behind stdio
 * commands, and the `proto-apps` command line as a function. Node only; the root entry
 * stays runtime-neutral.
 */
export { verifyModule, verifyCommand } from "./verify-node";
export type { VerifyNodeOptions } from "./verify-node";
export { loadServerModule, parseModuleSpecifier } from "./load-module";
export type { LoadedServer } from "./load-module";
export { splitCommandLine } from "./command-line";
export { runCli } from "./cli-run";
export type { CliIo } from "./cli-run";
export { verify, VerifyCheck, formatVerifyReport } from "./verify";
export type { Connectable, VerifyTarget, VerifyOptions, VerifyFinding, VerifyCheckResult, VerifyReport } from "./verify";
