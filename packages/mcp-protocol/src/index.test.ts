import { expect, it } from "vitest";
import * as api from "./index";

it("pins the runtime export list", () => {
  expect(Object.keys(api).sort()).toEqual([
    "LATEST_PROTOCOL_VERSION",
    "LOGGING_LEVELS",
    "McpErrorCode",
    "MetaKey",
    "NotificationMethod",
    "ProtocolVersion",
    "RequestMethod",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "allowsBatches",
    "compareVersions",
    "createResourceNotFoundError",
    "createUnsupportedVersionError",
    "createUrlElicitationRequiredError",
    "isReservedMetaKey",
    "isSupportedProtocolVersion",
    "isUnsupportedVersionError",
    "isValidMetaKey",
    "mcpCancellation",
    "negotiateVersion",
    "parseMetaKey",
    "unsupportedVersionData",
  ]);
});
