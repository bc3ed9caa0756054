import { describe, expect, it } from "vitest";
import { isCspSource } from "./csp";
import { canonicalUiResourceMeta, checkUiResourceMeta } from "./meta";

describe("CSP sources", () => {
  it("accepts origins with scheme, wildcard label, port and path", () => {
    for (const ok of ["https://api.example.com", "wss://live.example.com:8443", "https://*.example.com", "http://localhost:5173", "api.example.com", "https://cdn.example.com/assets/", "http://127.0.0.1:3000", "https://[::1]:8080", "https://example.com:*"]) {
      expect(isCspSource(ok), ok).toBe(true);
    }
  });

  it("refuses anything that could widen or inject a directive", () => {
    for (const bad of ["*", "https:", "'self'", "'unsafe-eval'", "https://a.com; script-src *", "https://a.com https://b.com", "https://a.com,https://b.com", "javascript://x", "data:", "https://*", "https://a.*.com", "", "https://a.com\n", "https://a.com/'x"]) {
      expect(isCspSource(bad), bad).toBe(false);
    }
    expect(isCspSource(`https://${"a".repeat(3000)}.com`)).toBe(false);
    expect(isCspSource(42)).toBe(false);
  });
});

describe("_meta.ui of resources", () => {
  it("finds errors and unknown keys, never throwing on junk", () => {
    expect(checkUiResourceMeta({ csp: { connectDomains: "https://a.com" }, permissions: { camera: true, usb: {} }, domain: "a b", prefersBorder: 1, extra: 1 })).toEqual({
      errors: [
        "csp.connectDomains must be an array of origins",
        "permissions.camera must be {} to request it (the stable spec uses an empty object, not true); leave it out otherwise",
        'domain must be a host name such as "a904794854a047f6.claudemcpcontent.com" (the format is host-specific)',
        "prefersBorder must be true or false",
      ],
      warnings: ["_meta.ui.extra is not defined by MCP Apps for resources", "permissions.usb is not defined by MCP Apps (known: camera, microphone, geolocation, clipboardWrite)"],
    });
    for (const junk of [null, 1, "x", [], { csp: null }, { csp: [] }, { permissions: "camera" }, { csp: { frameDomains: [null, 1, {}] } }]) {
      expect(checkUiResourceMeta(junk).errors.length).toBeGreaterThan(0);
    }
    expect(checkUiResourceMeta({ csp: { connectDomains: Array(300).fill("https://a.com") } }).errors).toEqual(["csp.connectDomains has 300 entries; at most 256 are accepted"]);
    expect(checkUiResourceMeta({})).toEqual({ errors: [], warnings: [] });
  });

  it("canonicalises to the same JSON whatever the input order, and leaves out what says nothing", () => {
    const a = canonicalUiResourceMeta({ prefersBorder: true, csp: { resourceDomains: ["https://b.com", "https://a.com"], connectDomains: [] }, permissions: { microphone: {}, camera: {} } }, "x");
    const b = canonicalUiResourceMeta({ permissions: { camera: {}, microphone: {} }, csp: { resourceDomains: ["https://a.com", "https://b.com", "https://a.com"] }, prefersBorder: true }, "x");
    expect(JSON.stringify(a)).toBe('{"csp":{"resourceDomains":["https://a.com","https://b.com"]},"permissions":{"camera":{},"microphone":{}},"prefersBorder":true}');
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(canonicalUiResourceMeta({ csp: { frameDomains: [] }, permissions: {} }, "x")).toBeUndefined();
    expect(canonicalUiResourceMeta(undefined, "x")).toBeUndefined();
    expect(() => canonicalUiResourceMeta({ csp: { baseUriDomains: ["'self'"] } }, "apps.resource(v)")).toThrow(/^apps\.resource\(v\): invalid ui metadata:\n- csp\.baseUriDomains: "'self'" is a CSP keyword/);
  });
});
