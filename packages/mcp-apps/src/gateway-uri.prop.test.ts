import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { childName, gatewayName, uiUri } from "./arbitraries.fixture";
import { fromGatewayUri, isGatewayUri, toGatewayUri } from "./gateway-uri";

describe("gateway URI properties", () => {
  it("fromGatewayUri(toGatewayUri(g, c, u)) gives back (g, c, u)", () => {
    fc.assert(
      fc.property(gatewayName, childName, uiUri, (gateway, child, uri) => {
        const g = toGatewayUri(gateway, child, uri);
        expect(fromGatewayUri(g)).toEqual({ gateway, child, uri });
        expect(isGatewayUri(g, gateway)).toBe(true);
        expect(g.startsWith(`ui://${gateway}/${child}/`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("distinct inputs never give the same gateway URI", () => {
    fc.assert(
      fc.property(fc.tuple(gatewayName, childName, uiUri), fc.tuple(gatewayName, childName, uiUri), (a, b) => {
        fc.pre(a[0] !== b[0] || a[1] !== b[1] || a[2] !== b[2]);
        expect(toGatewayUri(...a)).not.toBe(toGatewayUri(...b));
      }),
      { numRuns: 2000 },
    );
  });

  it("distinct inputs that share a prefix never collide either", () => {
    fc.assert(
      fc.property(gatewayName, childName, uiUri, fc.string({ maxLength: 5 }), (gateway, child, uri, suffix) => {
        fc.pre(suffix !== "");
        expect(toGatewayUri(gateway, child, uri)).not.toBe(toGatewayUri(gateway, child, uri + suffix));
      }),
    );
  });

  it("any string given to fromGatewayUri gives parts or a TypeError, never anything else", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string().map((s) => `ui://${s}`), fc.string().map((s) => `ui://gw/c/${s}`)), (text) => {
        try {
          const parts = fromGatewayUri(text);
          expect(toGatewayUri(parts.gateway, parts.child, parts.uri)).toBe(text);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
