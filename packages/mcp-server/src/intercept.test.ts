/** The chain of an extension's interceptors (session.ts `runRoute`): order, params, and what a throw becomes. */
import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError, JsonRpcErrorCode } from "@proto/jsonrpc";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, initializeRaw } from "./test-helpers";

let server: Server;
afterEach(async () => {
  await server?.close();
});

describe("interceptors", () => {
  it("run in the order the extensions were added, each around the next, with the params it was given", async () => {
    server = createServer({ name: "x", version: "1" });
    const log: string[] = [];
    server.tool({ name: "echo", inputSchema: { type: "object", properties: { t: { type: "string" } } } }, ({ t }) => {
      log.push(`tool ${String(t)}`);
      return t ?? "";
    });
    for (const name of ["a", "b"]) {
      server.use({
        id: `com.example/${name}`,
        intercept: {
          "tools/call": async (params, _ctx, next) => {
            const p = params as { arguments: { t: string } };
            log.push(`${name} in ${p.arguments.t}`);
            const result = await next({ ...p, arguments: { t: `${p.arguments.t}${name}` } });
            log.push(`${name} out`);
            return result;
          },
        },
      });
    }
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    expect(await raw.call(1, "tools/call", { name: "echo", arguments: { t: "-" } })).toMatchObject({ result: { content: [{ text: "-ab" }] } });
    expect(log).toEqual(["a in -", "b in -a", "tool -ab", "b out", "a out"]);
  });

  it("a synchronous throw, of an interceptor or of the route, is a rejection of next(); next() is always a promise", async () => {
    server = createServer({ name: "x", version: "1" });
    const kinds: string[] = [];
    const outer = (params: unknown, _ctx: unknown, next: () => Promise<unknown>) => {
      const pending = next();
      kinds.push(pending instanceof Promise ? "promise" : typeof pending);
      return pending.catch((error: unknown) => ({ caught: (error as Error).message }));
    };
    server.use({
      id: "com.example/methods",
      methods: {
        "x/route-throws": () => {
          throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "route said no");
        },
        "x/plain": () => ({ plain: true }),
        "x/inner-throws": () => ({ unreached: true }),
      },
    });
    server.use({ id: "com.example/outer", intercept: { "x/route-throws": outer, "x/plain": outer, "x/inner-throws": outer } });
    server.use({
      id: "com.example/inner",
      intercept: {
        "x/inner-throws": () => {
          throw new Error("inner said no");
        },
      },
    });
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    expect(await raw.call(1, "x/route-throws")).toMatchObject({ result: { caught: "route said no" } });
    expect(await raw.call(2, "x/inner-throws")).toMatchObject({ result: { caught: "inner said no" } });
    expect(await raw.call(3, "x/plain")).toMatchObject({ result: { plain: true } });
    expect(kinds).toEqual(["promise", "promise", "promise"]);
  });

  it("answers an interceptor's plain value, and turns its synchronous throw into the request's error", async () => {
    server = createServer({ name: "x", version: "1" });
    server.use({
      id: "com.example/answers",
      methods: { "x/one": () => "route", "x/two": () => "route" },
      intercept: {
        "x/one": () => ({ from: "interceptor" }),
        "x/two": () => {
          throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: no");
        },
      },
    });
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    expect(await raw.call(1, "x/one")).toMatchObject({ result: { from: "interceptor" } });
    expect(await raw.call(2, "x/two")).toMatchObject({ error: { code: -32602, message: "Invalid params: no" } });
  });
});
