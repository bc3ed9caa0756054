/**
 * Every framework recipe of the transport-http README, mounted for real and driven by our
 * client over HTTP on 127.0.0.1: node:http, Express 5, Fastify 5, Koa, Hono on Node
 * (@hono/node-server) and as a Web app, and a bare Web `fetch` handler.
 */
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { serve } from "@hono/node-server";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { expectEchoWorks } from "./support";
import * as express from "./recipes/express";
import * as fastify from "./recipes/fastify";
import * as hono from "./recipes/hono";
import * as koa from "./recipes/koa";
import * as nodeHttp from "./recipes/node-http";
import * as webFetch from "./recipes/web-fetch";

const stops: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function listen(server: HttpServer): Promise<string> {
  const port = await listenLoopback(server);
  stops.push(() => closeHttp(server));
  return `http://127.0.0.1:${port}/mcp`;
}

/** A `fetch` that hands each request to an in-process Web handler, no socket. */
function inProcess(answer: (request: Request) => Response | Promise<Response>): typeof fetch {
  return async (input, init) => answer(new Request(input, init));
}

describe("framework recipes, end to end", () => {
  it("node:http (createNodeHttpServer)", async () => {
    await expectEchoWorks(await listen(nodeHttp.httpServer));
  });

  it("Express 5 with express.json()", async () => {
    stops.push(() => express.handler.close());
    await expectEchoWorks(await listen(express.app.listen(0, "127.0.0.1")));
  });

  it("Fastify 5: the pre-read body is passed on, no 408 wait", async () => {
    await fastify.app.listen({ port: 0, host: "127.0.0.1" });
    stops.push(() => fastify.app.close());
    const { port } = fastify.app.server.address() as AddressInfo;
    await expectEchoWorks(`http://127.0.0.1:${port}/mcp`);
  });

  it("Koa with @koa/bodyparser", async () => {
    stops.push(() => koa.handler.close());
    await expectEchoWorks(await listen(koa.app.listen(0, "127.0.0.1")));
  });

  it("Hono on Node (@hono/node-server)", async () => {
    stops.push(() => hono.handler.close());
    const server = serve({ fetch: hono.app.fetch, port: 0, hostname: "127.0.0.1" }) as HttpServer;
    await new Promise((resolve) => server.once("listening", resolve));
    stops.push(() => closeHttp(server));
    await expectEchoWorks(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  });

  it("Hono as a Web app (app.fetch, no Node server)", async () => {
    await expectEchoWorks("http://localhost/mcp", inProcess((request) => hono.app.fetch(request)));
  });

  it("a bare Web fetch handler", async () => {
    stops.push(() => webFetch.handler.close());
    await expectEchoWorks("http://localhost/mcp", inProcess((request) => webFetch.default.fetch(request)));
  });

  it("has each recipe mounted on /mcp only", async () => {
    const other = await hono.app.fetch(new Request("http://localhost/other", { method: "POST" }));
    expect(other.status).toBe(404);
  });
});
