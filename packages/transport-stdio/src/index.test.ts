import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as node from "./node";

describe("public surface", () => {
  it("pins the root entry's exports", () => {
    expect(Object.keys(root).sort()).toEqual(["DEFAULT_MAX_LINE_BYTES", "createLineDecoder", "encodeLine"]);
  });

  it("pins the ./node entry's exports", () => {
    expect(Object.keys(node).sort()).toEqual([
      "LogLevel",
      "StdioErrorCode",
      "StdioFaultCode",
      "StdioProcessError",
      "createStdioClientTransport",
      "createStdioServerTransport",
      "createStreamLogger",
      "isLogLevel",
      "isStdioProcessError",
      "redirectConsoleToStderr",
      "serveStdio",
    ]);
  });
});
