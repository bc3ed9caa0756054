import { expect, it } from "vitest";
import * as api from "./index";

it("pins the runtime export list", () => {
  expect(Object.keys(api).sort()).toEqual([
    "ClientRequestFault",
    "MalformedResultError",
    "TOOL_ERROR_META_KEY",
    "createPageSource",
    "createServer",
    "createUriTemplate",
    "decodeCursor",
    "encodeCursor",
    "isCallToolResult",
    "isUriTemplate",
    "paginate",
    "toCallToolResult",
  ]);
});
