import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalResource, protectedResourceMetadataUrls, resourceMatches } from "./urls";

const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const url = fc
  .record({
    scheme: fc.constantFrom("https", "http"),
    host: fc.constantFrom("mcp.example.com", "127.0.0.1", "Example.ORG", "[::1]"),
    port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
    path: fc.array(segment, { maxLength: 4 }),
    slash: fc.boolean(),
  })
  .map(({ scheme, host, port, path, slash }) => new URL(`${scheme}://${host}${port === undefined ? "" : `:${port}`}/${path.join("/")}${slash && path.length > 0 ? "/" : ""}`));

describe("resource URL properties", () => {
  it("a server always matches its own canonical resource and every parent path", () => {
    fc.assert(
      fc.property(url, (server) => {
        expect(resourceMatches(canonicalResource(server), server)).toBe(true);
        expect(resourceMatches(server.origin, server)).toBe(true);
      }),
    );
  });

  it("never matches another origin", () => {
    fc.assert(
      fc.property(url, url, (a, b) => {
        if (a.origin !== b.origin) expect(resourceMatches(canonicalResource(a), b)).toBe(false);
      }),
    );
  });

  it("puts every well-known URL on the server's origin, root last", () => {
    fc.assert(
      fc.property(url, (server) => {
        const urls = protectedResourceMetadataUrls(server);
        expect(urls.every((candidate) => candidate.origin === server.origin)).toBe(true);
        expect(urls.at(-1)?.pathname).toBe("/.well-known/oauth-protected-resource");
      }),
    );
  });
});
