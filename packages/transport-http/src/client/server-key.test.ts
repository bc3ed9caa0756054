import { describe, expect, it } from "vitest";
import { createHttpClientTransport } from "./http-client-transport";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { createSseClientTransport } from "../legacy/sse-client-transport";

const neverFetch = async (): Promise<Response> => {
  throw new Error("no request is expected");
};

describe("serverKey of the HTTP client transports", () => {
  it("is the URL's origin: path, query and credentials left out, default ports dropped", () => {
    const create = [
      (url: string) => createStreamableHttpClientTransport(url, { fetch: neverFetch }),
      (url: string) => createHttpClientTransport(url, { fetch: neverFetch }),
      (url: string) => createSseClientTransport(url, { fetch: neverFetch }),
    ];
    for (const make of create) {
      expect(make("https://Api.Example.test:443/mcp?x=1").serverKey).toBe("https://api.example.test");
      expect(make("http://user:pw@127.0.0.1:8080/a/b").serverKey).toBe("http://127.0.0.1:8080");
    }
  });

  it("differs between origins and is equal for two endpoints of one origin", () => {
    const a = createStreamableHttpClientTransport("http://localhost:3000/mcp", { fetch: neverFetch });
    const b = createHttpClientTransport("http://localhost:3000/other", { fetch: neverFetch });
    const c = createHttpClientTransport("http://localhost:3001/mcp", { fetch: neverFetch });
    expect(a.serverKey).toBe(b.serverKey);
    expect(c.serverKey).not.toBe(a.serverKey);
  });
});
