import { describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "./testing";
import { createPeer } from "./peer";
import { redactedJson, traceTransport } from "./trace";

describe("redactedJson", () => {
  it("hides the values of secret-looking keys at any depth, keeps the rest", () => {
    const text = redactedJson({ id: 1, params: { token: "abc", nested: { Authorization: "Bearer x", apiKey: "k", name: "n" }, password: null } });
    expect(JSON.parse(text)).toEqual({ id: 1, params: { token: "[redacted]", nested: { Authorization: "[redacted]", apiKey: "[redacted]", name: "n" }, password: null } });
    expect(text).not.toContain("abc");
  });
});

describe("traceTransport", () => {
  it("logs inbound and outbound payloads (replies included) to debug, redacted", async () => {
    const lines: string[] = [];
    const [a, b] = createMemoryTransportPair();
    const server = createPeer(traceTransport(b, { debug: (line) => lines.push(line), warn() {}, error() {} }, "srv"));
    server.handle("echo", (params) => params ?? null);
    const client = createPeer(a);
    await Promise.all([server.start(), client.start()]);
    await expect(client.request("echo", { secret: "s3", text: "hi" })).resolves.toEqual({ secret: "s3", text: "hi" });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^srv <- \{.*"method":"echo".*"secret":"\[redacted\]"/);
    expect(lines[1]).toMatch(/^srv -> \{.*"result":\{"secret":"\[redacted\]","text":"hi"\}/);
    expect(lines.join("")).not.toContain("s3");
    await client.close();
    await server.close();
  });

  it("returns the transport itself when the logger has no debug", () => {
    const [a] = createMemoryTransportPair();
    expect(traceTransport(a, { warn() {}, error() {} })).toBe(a);
  });
});
