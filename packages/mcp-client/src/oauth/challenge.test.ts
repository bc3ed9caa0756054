import { describe, expect, it } from "vitest";
import { parseBearerChallenge, parseWwwAuthenticate, splitScope } from "./challenge";

describe("parseWwwAuthenticate", () => {
  it("reads quoted and token parameters, names lowercased", () => {
    expect(parseWwwAuthenticate('Bearer realm="mcp", Error=invalid_token, scope="a b"')).toEqual([
      { scheme: "bearer", params: { realm: "mcp", error: "invalid_token", scope: "a b" } },
    ]);
  });

  it("splits several challenges and keeps token68 forms", () => {
    const parsed = parseWwwAuthenticate('Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", DPoP algs="ES256"');
    expect(parsed.map((c) => c.scheme)).toEqual(["basic", "bearer", "dpop"]);
    expect(parsed[0]?.token68).toBe("YWxhZGRpbjpvcGVuc2VzYW1l==");
    expect(parsed[1]?.params.resource_metadata).toBe("https://x/.well-known/oauth-protected-resource");
    expect(parsed[2]?.params.algs).toBe("ES256");
  });

  it("unescapes quoted pairs and tolerates spaces around '='", () => {
    expect(parseWwwAuthenticate('Bearer error_description = "say \\"hi\\", twice"')[0]?.params.error_description).toBe('say "hi", twice');
  });

  it("keeps the first of duplicated parameters and survives garbage", () => {
    expect(parseWwwAuthenticate('Bearer scope="a", scope="b"')[0]?.params.scope).toBe("a");
    expect(parseWwwAuthenticate("")).toEqual([]);
    expect(parseWwwAuthenticate(',,, ;;; "unterminated')).toEqual(expect.any(Array));
    expect(parseWwwAuthenticate('Bearer scope="never closed')[0]?.params.scope).toBe("never closed");
  });

  it("does not let __proto__ reach the prototype", () => {
    const [challenge] = parseWwwAuthenticate('Bearer __proto__="x", scope="s"');
    expect(Object.getPrototypeOf(challenge?.params)).toBe(Object.prototype);
    expect(challenge?.params.scope).toBe("s");
  });
});

describe("parseBearerChallenge", () => {
  it("extracts what MCP clients need", () => {
    expect(
      parseBearerChallenge('Bearer error="insufficient_scope", scope="files:read  files:write", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", error_description="more"'),
    ).toEqual({
      error: "insufficient_scope",
      errorDescription: "more",
      scope: ["files:read", "files:write"],
      resourceMetadata: "https://mcp.example/.well-known/oauth-protected-resource",
    });
  });

  it("finds Bearer among other schemes and is undefined without it", () => {
    expect(parseBearerChallenge('Basic realm="x", Bearer scope="s"')?.scope).toEqual(["s"]);
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge(undefined)).toBeUndefined();
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge("Bearer")).toEqual({});
  });

  it("drops an empty scope", () => {
    expect(parseBearerChallenge('Bearer scope=""')).toEqual({});
  });
});

describe("splitScope", () => {
  it("splits on spaces and tabs and removes duplicates", () => {
    expect(splitScope(" a\tb  a c ")).toEqual(["a", "b", "c"]);
  });
});
