import { expect, it } from "vitest";
import * as api from "./index";

it("pins the runtime export list", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ClientRequestFault",
    "LEASE_LOST_ERROR",
    "MalformedResultError",
    "ProtocolError",
    "ServerFaultCode",
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
    "isInputRoundEnd",
    "isUriTemplate",
    "paginate",
    "toCallToolResult",
  ]);
});

it("holds every local fault code in ServerFaultCode, the former names as aliases", () => {
  expect(api.ServerFaultCode).toEqual({ MalformedResult: "MALFORMED_RESULT", TaskStoreFull: "TASK_STORE_FULL" });
  expect(api.ClientRequestFault.MalformedResult).toBe(api.ServerFaultCode.MalformedResult);
  expect(api.TASK_STORE_FULL).toBe(api.ServerFaultCode.TaskStoreFull);
  expect(new api.MalformedResultError("roots/list", "x").code).toBe(api.ServerFaultCode.MalformedResult);
});
