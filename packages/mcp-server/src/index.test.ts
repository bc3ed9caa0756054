import { expect, it } from "vitest";
import * as api from "./index";

it("pins the runtime export list", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ClientRequestFault",
    "LEASE_LOST_ERROR",
    "MalformedResultError",
    "ProtocolError",
    "TASK_STORE_FULL",
    "TOOL_ERROR_META_KEY",
    "createMemoryTaskStore",
    "createMissingCapabilityError",
    "createPageSource",
    "createServer",
    "createUriTemplate",
    "createUriTemplateRouter",
    "decodeCursor",
    "encodeCursor",
    "isCallToolResult",
    "isUriTemplate",
    "paginate",
    "toCallToolResult",
  ]);
});
