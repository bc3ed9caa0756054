/**
 * `@proto/transport-stdio/node`: the Node.js stdio transports of MCP (spec 2025-11-25,
 * "Transports > stdio"). A server reads stdin and writes stdout; a client spawns the server
 * as a child process. The runtime-neutral framer is the package's root entry.
 */
export { createStdioServerTransport } from "./stdio-server";
export type { StdioServerTransport, StdioServerTransportOptions } from "./stdio-server";
export { createStdioClientTransport } from "./stdio-client";
export type { StdioClientTransport } from "./stdio-client";
export type { StdioClientTransportOptions } from "./client-options";
export { StdioProcessError, StdioFaultCode, StdioErrorCode, isStdioProcessError } from "./process-error";
export type { StdioProcessErrorDetail } from "./process-error";
export { redirectConsoleToStderr } from "./console-redirect";
export { serveStdio } from "./serve-stdio";
export type { StdioServable, ServeStdioOptions, StdioService } from "./serve-stdio";
export type { ServerSummary } from "./banner";
export type { ExitStatus } from "./exit-watch";
export { createStreamLogger, LogLevel, isLogLevel } from "./stderr-logger";
