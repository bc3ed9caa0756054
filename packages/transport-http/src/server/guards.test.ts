import { describe, expect, it } from "vitest";
import { checkHostAndOrigin, isLoopbackAddress } from "./guards";

describe("checkHostAndOrigin", () => {
  const loopback = { loopback: true };
  it("recognises loopback addresses", () => {
    for (const address of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ["10.0.0.1", "0.0.0.0", "::", "128.0.0.1", "127.0.0.1.nip.io"]) expect(isLoopbackAddress(address), address).toBe(false);
  });

  it("fails closed on loopback: a missing or malformed Host is refused", () => {
    expect(checkHostAndOrigin({ ...loopback, host: undefined, origin: undefined }, {}, [])).toContain("missing");
    expect(checkHostAndOrigin({ ...loopback, host: "a b", origin: undefined }, {}, [])).toBeDefined();
    expect(checkHostAndOrigin({ ...loopback, host: "user@localhost", origin: undefined }, {}, [])).toBeDefined();
  });

  it("is case-insensitive on names and accepts any port on loopback names", () => {
    expect(checkHostAndOrigin({ ...loopback, host: "LOCALHOST:3000", origin: "HTTP://LocalHost:5173" }, {}, [])).toBeUndefined();
  });

  it("off loopback: any Host, and Origin must be same-origin or a CORS origin", () => {
    const input = { loopback: false, host: "mcp.example.com" };
    expect(checkHostAndOrigin({ ...input, origin: undefined }, {}, [])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://mcp.example.com" }, {}, [])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://evil.example.com" }, {}, [])).toBeDefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://app.example.com" }, {}, ["https://app.example.com"])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "null" }, {}, [])).toBeDefined();
  });

  it("an allowedHosts entry with a port accepts only that port", () => {
    const options = { allowedHosts: ["api.local:8443"] };
    expect(checkHostAndOrigin({ loopback: false, host: "api.local:8443", origin: undefined }, options, [])).toBeUndefined();
    expect(checkHostAndOrigin({ loopback: false, host: "api.local:8444", origin: undefined }, options, [])).toBeDefined();
    expect(checkHostAndOrigin({ loopback: false, host: "api.local", origin: undefined }, options, [])).toBeDefined();
  });

  it("CORS `*` never widens the Origin rule on loopback", () => {
    expect(checkHostAndOrigin({ ...loopback, host: "localhost", origin: "https://evil.example.com" }, {}, [])).toBeDefined();
  });
});
