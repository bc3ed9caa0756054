import { describe, expect, it } from "vitest";
import { fromGatewayUri, isChildName, isGatewayName, isGatewayUri, toGatewayUri } from "./gateway-uri";

describe("gateway URIs", () => {
  it("namespaces ui://weather/dashboard of child weather behind gateway gw, and back", () => {
    expect(toGatewayUri("gw", "weather", "ui://weather/dashboard")).toBe("ui://gw/weather/ui%3A%2F%2Fweather%2Fdashboard");
    expect(fromGatewayUri("ui://gw/weather/ui%3A%2F%2Fweather%2Fdashboard")).toEqual({ gateway: "gw", child: "weather", uri: "ui://weather/dashboard" });
  });

  it("keeps identical child URIs apart and nests gateways", () => {
    const a = toGatewayUri("gw", "a", "ui://app/view");
    const b = toGatewayUri("gw", "b", "ui://app/view");
    expect(a).not.toBe(b);
    const outer = toGatewayUri("edge", "gw", a);
    expect(outer).toBe("ui://edge/gw/ui%3A%2F%2Fgw%2Fa%2Fui%253A%252F%252Fapp%252Fview");
    expect(fromGatewayUri(fromGatewayUri(outer).uri)).toEqual({ gateway: "gw", child: "a", uri: "ui://app/view" });
  });

  it("encodes query, fragment and non-ASCII characters", () => {
    const uri = "ui://w/d?city=Zürich&x=1#top";
    const g = toGatewayUri("gw", "w", uri);
    expect(g).toBe("ui://gw/w/ui%3A%2F%2Fw%2Fd%3Fcity%3DZ%C3%BCrich%26x%3D1%23top");
    expect(fromGatewayUri(g).uri).toBe(uri);
  });

  it("validates names with errors that say what is allowed", () => {
    expect(() => toGatewayUri("GW", "weather", "ui://x")).toThrow(/gateway name "GW" must be lowercase/);
    expect(() => toGatewayUri("g w", "weather", "ui://x")).toThrow(/gateway name/);
    expect(() => toGatewayUri("-gw", "weather", "ui://x")).toThrow(/gateway name/);
    expect(() => toGatewayUri("gw", "we/ather", "ui://x")).toThrow(/child name "we\/ather" must be 1-128 characters/);
    expect(() => toGatewayUri("gw", "..", "ui://x")).toThrow(/not start with '\.'/);
    expect(() => toGatewayUri("gw", "", "ui://x")).toThrow(/child name/);
    expect(() => toGatewayUri("gw", "c".repeat(129), "ui://x")).toThrow(/child name/);
    expect(isGatewayName("eu.gw-1")).toBe(true);
    expect(isChildName("Weather.v2_~-")).toBe(true);
  });

  it("refuses non-ui:// input clearly", () => {
    expect(() => toGatewayUri("gw", "w", "https://example.com")).toThrow(/is not a ui:\/\/ URI; only MCP Apps views are namespaced/);
    expect(() => toGatewayUri("gw", "w", "ui://")).toThrow(/not a ui:\/\/ URI/);
    expect(() => toGatewayUri("gw", "w", "ui://x\uD800")).toThrow(/unpaired surrogate/);
    expect(() => fromGatewayUri("https://gw/w/x")).toThrow(/is not a gateway URI/);
    // @ts-expect-error not a string
    expect(() => fromGatewayUri(undefined)).toThrow(/is not a gateway URI/);
  });

  it("accepts only the exact form toGatewayUri writes", () => {
    expect(() => fromGatewayUri("ui://gw/weather")).toThrow(/expected exactly/);
    expect(() => fromGatewayUri("ui://gw/weather/")).toThrow(/expected exactly/);
    expect(() => fromGatewayUri("ui://gw/weather/ui%3A%2F%2Fa/b")).toThrow(/expected exactly/);
    expect(() => fromGatewayUri("ui://gw/weather/%E0%A4%A")).toThrow(/malformed percent-encoding/);
    expect(() => fromGatewayUri("ui://gw/weather/https%3A%2F%2Fx")).toThrow(/does not wrap a ui:\/\/ URI/);
    expect(() => fromGatewayUri("ui://gw/weather/ui%3a%2f%2fx")).toThrow(/not canonically encoded/);
    expect(() => fromGatewayUri("ui://gw/weather/ui:%2F%2Fx")).toThrow(/not canonically encoded/);
    expect(() => fromGatewayUri("UI://gw/weather/ui%3A%2F%2Fx")).toThrow(/is not a gateway URI/);
    expect(isGatewayUri("ui://gw/weather/ui%3A%2F%2Fx")).toBe(true);
    expect(isGatewayUri("ui://gw/weather/ui%3A%2F%2Fx", "gw")).toBe(true);
    expect(isGatewayUri("ui://gw/weather/ui%3A%2F%2Fx", "other")).toBe(false);
    expect(isGatewayUri("ui://weather/dashboard")).toBe(false);
    expect(isGatewayUri(7)).toBe(false);
  });
});
