/**
 * Regression: a framework that read the body (Fastify) and a handler called without it used to
 * wait bodyTimeoutMs (30 s) and answer 408. Now it is a 400 at once that says what to pass.
 */
import type { AddressInfo } from "node:net";
import { afterAll, expect, it } from "vitest";
import Fastify from "fastify";
import { createNodeHttpHandler } from "@proto/transport-http/node";
import { createEchoServer, postInitialize } from "./support";

const server = createEchoServer();
const handler = createNodeHttpHandler({ connect: (transport) => server.connect(transport) });
const app = Fastify();
app.all("/mcp", (request, reply) => {
  reply.hijack();
  handler(request.raw, reply.raw); // the old recipe: the body Fastify read is not passed on
});
afterAll(async () => {
  await app.close();
  await handler.close();
});

it("answers 400 naming the third argument instead of hanging", async () => {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const response = await postInitialize(`http://127.0.0.1:${port}/mcp`);
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: { message: string } };
  expect(body.error.message).toContain("handler(req, res, body)");
});
