/**
 * The tools of the everything server: one per content type and per server feature the MCP
 * conformance server scenarios exercise (MCP 2025-11-25 server/tools, utilities/logging,
 * utilities/progress, client/sampling, client/elicitation, SEP-1699, SEP-1613).
 */
import type { RequestContext, Server } from "@proto/mcp-server";
import type { CallToolResult } from "@proto/mcp-protocol";
import { JSON_SCHEMA_2020_12_INPUT, PNG_PIXEL_BASE64, SEP1034_FORM, SEP1330_FORM, WAV_BASE64 } from "./fixtures";
import { registerClientTools } from "./tools-client";
import { registerStatelessTools } from "./tools-stateless";
import { registerTaskTools } from "./tools-tasks";
import { pause } from "./util";

/** Closes the SSE connection of the current request (HTTP only); resolves false when there is none. */
export type CloseStream = (ctx: RequestContext) => Promise<boolean>;

/** Options of `registerTools`. */
export interface ToolOptions {
  /** Ends the current request's SSE connection mid-call (test_reconnection). Absent over stdio. */
  readonly closeStream?: CloseStream;
}

const NO_ARGS = { type: "object", properties: {} } as const;

function registerContentTools(server: Server): void {
  server.tool({ name: "test_simple_text", description: "Tests simple text content response", inputSchema: NO_ARGS }, () => "This is a simple text response for testing.");
  server.tool(
    { name: "test_image_content", description: "Tests image content response", inputSchema: NO_ARGS },
    (): CallToolResult => ({ content: [{ type: "image", data: PNG_PIXEL_BASE64, mimeType: "image/png" }] }),
  );
  server.tool(
    { name: "test_audio_content", description: "Tests audio content response", inputSchema: NO_ARGS },
    (): CallToolResult => ({ content: [{ type: "audio", data: WAV_BASE64, mimeType: "audio/wav" }] }),
  );
  server.tool(
    { name: "test_embedded_resource", description: "Tests embedded resource content response", inputSchema: NO_ARGS },
    (): CallToolResult => ({
      content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
    }),
  );
  server.tool(
    { name: "test_multiple_content_types", description: "Tests response with multiple content types (text, image, resource)", inputSchema: NO_ARGS },
    (): CallToolResult => ({
      content: [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: PNG_PIXEL_BASE64, mimeType: "image/png" },
        { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
      ],
    }),
  );
  server.tool(
    { name: "json_schema_2020_12_tool", description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)", inputSchema: JSON_SCHEMA_2020_12_INPUT },
    (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
  );
}

function registerBehaviourTools(server: Server, options: ToolOptions): void {
  server.tool({ name: "test_tool_with_logging", description: "Tests tool that emits log messages during execution", inputSchema: NO_ARGS }, async (_args, ctx) => {
    await ctx.log("info", "Tool execution started");
    await pause(50, ctx.signal);
    await ctx.log("info", "Tool processing data");
    await pause(50, ctx.signal);
    await ctx.log("info", "Tool execution completed");
    return "Tool with logging executed successfully";
  });
  server.tool({ name: "test_tool_with_progress", description: "Tests tool that reports progress notifications", inputSchema: NO_ARGS }, async (_args, ctx) => {
    for (const step of [0, 50, 100]) {
      if (step > 0) await pause(50, ctx.signal);
      await ctx.progress(step, 100, `Completed step ${step} of 100`);
    }
    return String(ctx.meta.progressToken ?? "no progress token");
  });
  server.tool({ name: "test_error_handling", description: "Tests error response handling", inputSchema: NO_ARGS }, () => {
    throw new Error("This tool intentionally returns an error for testing");
  });
  server.tool(
    {
      name: "test_reconnection",
      description:
        "Tests SSE stream disconnection and client reconnection (SEP-1699). Over HTTP the server closes the stream mid-call and the client gets the result after it reconnects.",
      inputSchema: NO_ARGS,
    },
    async (_args, ctx) => {
      const closed = (await options.closeStream?.(ctx)) ?? false;
      if (closed) await pause(100, ctx.signal); // the result is stored and replayed when the client comes back
      return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.";
    },
  );
}

/** Registers every tool of the everything server on `server`. */
export function registerTools(server: Server, options: ToolOptions = {}): void {
  registerContentTools(server);
  registerBehaviourTools(server, options);
  registerClientTools(server, { sep1034: SEP1034_FORM, sep1330: SEP1330_FORM });
  registerStatelessTools(server);
  registerTaskTools(server);
}
