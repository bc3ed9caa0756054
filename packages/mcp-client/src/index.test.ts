import { describe, expect, it } from "vitest";
import * as api from "./index";

describe("@proto/mcp-client public surface", () => {
  it("exports exactly these runtime values", () => {
    expect(Object.keys(api).sort()).toEqual([
      "ClientErrorCode",
      "ClientFaultCode",
      "McpClientError",
      "ToolCallError",
      "applyElicitationDefaults",
      "backoffDelay",
      "callTools",
      "connect",
      "createClient",
      "createEraMemory",
      "createToolNameMap",
      "isMcpClientError",
      "isValidToolName",
      "pickCommonVersion",
      "retry",
      "serverSupports",
      "sleep",
      "toAnthropicTools",
      "toOpenAiTools",
      "toProviderSchema",
    ]);
  });
});
