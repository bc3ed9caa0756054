import { describe, expect, it } from "vitest";
import { checkHostAndOrigin, isLoopbackAddress, wildcardBindWarning } from "./guards";

describe("checkHostAndOrigin", () => {
  const loopback = { localAddress: "127.0.0.1" };
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

  it("off loopback: Host must be the address the connection arrived on (a rebinding name is refused)", () => {
    const on = (host: string, localAddress: string) => checkHostAndOrigin({ host, origin: undefined, localAddress }, {}, []);
    expect(on("10.0.0.5:3000", "10.0.0.5")).toBeUndefined();
    expect(on("10.0.0.5:3000", "::ffff:10.0.0.5")).toBeUndefined(); // a dual-stack "::" bind reports IPv4 peers mapped
    expect(on("[fe80::1]:3000", "fe80::1")).toBeUndefined();
    expect(on("rebind.attacker.example:3000", "10.0.0.5")).toContain("allowedHosts");
    expect(on("10.0.0.6:3000", "10.0.0.5")).toBeDefined();
    expect(on("localhost:3000", "10.0.0.5")).toBeDefined();
    expect(checkHostAndOrigin({ host: undefined, origin: undefined, localAddress: "10.0.0.5" }, {}, [])).toContain("missing");
    expect(checkHostAndOrigin({ host: "mcp.example.com", origin: undefined, localAddress: "10.0.0.5" }, { allowedHosts: ["mcp.example.com"] }, [])).toBeUndefined();
  });

  it("warns about a wildcard bind without allowedHosts, and about hostCheck: false on it", () => {
    expect(wildcardBindWarning("0.0.0.0", {})).toContain("allowedHosts");
    expect(wildcardBindWarning("::", {})).toContain("allowedHosts");
    expect(wildcardBindWarning("::", false)).toContain("hostCheck: false");
    expect(wildcardBindWarning("0.0.0.0", { allowedHosts: ["mcp.example.com"] })).toBeUndefined();
    expect(wildcardBindWarning("127.0.0.1", {})).toBeUndefined();
    expect(wildcardBindWarning("10.0.0.5", {})).toBeUndefined();
  });

  it("off loopback: Origin must be same-origin or a CORS origin", () => {
    const input = { localAddress: "10.0.0.5", host: "10.0.0.5" };
    expect(checkHostAndOrigin({ ...input, origin: undefined }, {}, [])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://10.0.0.5" }, {}, [])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://evil.example.com" }, {}, [])).toBeDefined();
    expect(checkHostAndOrigin({ ...input, origin: "https://app.example.com" }, {}, ["https://app.example.com"])).toBeUndefined();
    expect(checkHostAndOrigin({ ...input, origin: "null" }, {}, [])).toBeDefined();
  });

  it("an allowedHosts entry with a port accepts only that port", () => {
    const options = { allowedHosts: ["api.local:8443"] };
    expect(checkHostAndOrigin({ localAddress: "10.0.0.5", host: "api.local:8443", origin: undefined }, options, [])).toBeUndefined();
    expect(checkHostAndOrigin({ localAddress: "10.0.0.5", host: "api.local:8444", origin: undefined }, options, [])).toBeDefined();
    expect(checkHostAndOrigin({ localAddress: "10.0.0.5", host: "api.local", origin: undefined }, options, [])).toBeDefined();
  });

  it("CORS `*` never widens the Origin rule on loopback", () => {
    expect(checkHostAndOrigin({ ...loopback, host: "localhost", origin: "https://evil.example.com" }, {}, [])).toBeDefined();
  });
});
