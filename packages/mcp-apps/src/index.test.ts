import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as node from "./node";
import * as verify from "./verify";

describe("public surface", () => {
  it("pins the root entry's runtime exports", () => {
    expect(Object.keys(root).sort()).toEqual(
      [
        "AppsErrorCode",
        "AppsFaultCode",
        "LEGACY_RESOURCE_URI_KEY",
        "UI_EXTENSION_ID",
        "UI_META_KEY",
        "UI_MIME_TYPE",
        "UI_SCHEME",
        "checkUiResourceMeta",
        "createApps",
        "createGatewayUriMap",
        "dropUiDomain",
        "fromGatewayUri",
        "isChildName",
        "isCspSource",
        "isGatewayName",
        "isGatewayUri",
        "isHtmlDocument",
        "isUiUri",
        "readToolUi",
        "rewriteReadParams",
        "rewriteReadResult",
        "rewriteResourcesList",
        "rewriteToolResult",
        "rewriteToolsList",
        "rewriteUiMessage",
        "rewriteUiParams",
        "rewriteUiResult",
        "toGatewayUri",
        "withoutUiMeta",
      ].sort(),
    );
    expect(root.UI_EXTENSION_ID).toBe("io.modelcontextprotocol/ui");
    expect(root.UI_MIME_TYPE).toBe("text/html;profile=mcp-app");
    expect(root.AppsFaultCode).toEqual({ NotNegotiated: "UI_NOT_NEGOTIATED", BrokenLink: "UI_BROKEN_LINK", NotRegistered: "UI_NOT_REGISTERED" });
  });

  it("pins the verify entry", () => {
    expect(Object.keys(verify).sort()).toEqual(["VerifyCheck", "formatVerifyReport", "verify"]);
    expect(Object.values(verify.VerifyCheck)).toEqual(["ui/negotiation", "ui/link-integrity", "ui/tool-metadata", "ui/mime-type", "ui/content-shape", "ui/csp-metadata", "ui/documentation"]);
  });

  it("pins the node entry", () => {
    expect(Object.keys(node).sort()).toEqual(
      ["VerifyCheck", "formatVerifyReport", "loadServerModule", "parseModuleSpecifier", "runCli", "splitCommandLine", "verify", "verifyCommand", "verifyModule"].sort(),
    );
  });
});
