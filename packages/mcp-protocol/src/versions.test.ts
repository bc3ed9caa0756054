import { describe, expect, it } from "vitest";
import { allowsBatches, compareVersions, isSupportedProtocolVersion, LATEST_PROTOCOL_VERSION, negotiateVersion, SUPPORTED_PROTOCOL_VERSIONS } from "./versions";

describe("negotiateVersion", () => {
  it("answers with the requested version when served", () => {
    for (const v of SUPPORTED_PROTOCOL_VERSIONS) expect(negotiateVersion(v)).toBe(v);
  });
  it("answers with the latest otherwise", () => {
    expect(negotiateVersion("2099-01-01")).toBe(LATEST_PROTOCOL_VERSION);
    expect(negotiateVersion(undefined)).toBe("2025-11-25");
    expect(negotiateVersion(42)).toBe("2025-11-25");
  });
  it("honours a restricted set", () => {
    expect(negotiateVersion("2024-11-05", ["2025-06-18"])).toBe("2025-06-18");
    expect(() => negotiateVersion("x", [])).toThrow(TypeError);
  });
});

describe("version helpers", () => {
  it("lists the four session-era versions newest first", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    expect([...SUPPORTED_PROTOCOL_VERSIONS].sort(compareVersions).reverse()).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });
  it("recognises supported versions", () => {
    expect(isSupportedProtocolVersion("2025-06-18")).toBe(true);
    expect(isSupportedProtocolVersion("2026-07-28")).toBe(false);
    expect(isSupportedProtocolVersion(null)).toBe(false);
  });
  it("allows batches only under 2025-03-26", () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS.filter(allowsBatches)).toEqual(["2025-03-26"]);
    expect(allowsBatches(undefined)).toBe(false);
  });
});
