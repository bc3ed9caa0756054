import { describe, expect, it } from "vitest";
import * as root from "./index";
import * as node from "./node";

describe("public surface", () => {
  it("pins the root entry's runtime exports", () => {
    expect(Object.keys(root).sort()).toEqual(
      ["GATEWAY_EXTENSION_ID", "GATEWAY_META_KEY", "GatewayConfigError", "GatewayErrorCode", "GatewayFaultCode", "createGateway", "exposeNames", "isGatewayChildName", "parseExposedUri", "parseGatewayConfig"].sort(),
    );
    expect(root.GatewayFaultCode).toEqual({ UnknownName: "M-GW-002", ChildFailed: "M-GW-004", UnknownView: "M-UI-002", ViewFailed: "M-UI-004", ConfigInvalid: "CONFIG_INVALID" });
    expect(root.GatewayErrorCode).toBe(root.GatewayFaultCode);
    expect(root.GATEWAY_META_KEY).toBe("dev.proto/gateway");
  });

  it("pins the node entry (the root's exports and the Node-only ones)", () => {
    expect(Object.keys(node).sort()).toEqual(
      [...Object.keys(root), "createStdioSpawner", "formatGatewayBanner", "installChild", "parseArgs", "readRegistry", "registryChildren", "registryPath", "runCli", "uninstallChild"].sort(),
    );
  });
});
