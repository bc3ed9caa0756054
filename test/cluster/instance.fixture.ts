/**
 * One instance of the load-balanced deployment the cluster tests start three times (and the
 * bench): the same server definition on every instance, the Streamable HTTP handler on the Redis
 * stores, `/health` for the balancer, and an `x-instance` header naming the instance that
 * answered. Env: PORT, REDIS_URL, INSTANCE; STORES=memory runs it on the in-memory stores (one
 * instance only: the bench's baseline); CLOSE_SSE_AFTER_MS makes POST streams poll; LEASE_MS is
 * the request journal's lease (a dead instance's calls are taken over after it).
 */
import { createServer as createHttpServer } from "node:http";
import { createServer } from "@proto/mcp-server";
import { createRedisStores } from "@proto/redis-stores";
import { createMemoryEventStore } from "@proto/transport-http";
import { createNodeHttpHandler } from "@proto/transport-http/node";

const name = process.env.INSTANCE ?? "instance";
const port = Number(process.env.PORT ?? "0");
const memory = process.env.STORES === "memory";
/** The same signing key on every instance: an MRTR retry may land on any of them. */
const SHARED_KEY = { id: "cluster", secret: new TextEncoder().encode("a shared secret of at least 32 bytes, test only") };

const stores = memory ? undefined : await createRedisStores({ url: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" });
const server = createServer({ name: "cluster", version: "1.0.0" }, { stateless: { requestState: { keys: [SHARED_KEY] }, ...(stores ? { fanout: stores.fanout } : {}) } });
server.tool({ name: "whoami", inputSchema: { type: "object" } }, () => name);
server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
  const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }, { signal: ctx.signal });
  const content = answer.content as { text?: string };
  return `${name} got ${content.text ?? "?"}`;
});
async function long({ steps, delayMs }: { steps: number; delayMs: number }, ctx: { progress(progress: number, total?: number): Promise<void> }): Promise<string> {
  for (let i = 1; i <= steps; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await ctx.progress(i, steps);
  }
  return `${name} finished ${steps}`;
}
const stepsSchema = { type: "object", properties: { steps: { type: "integer" }, delayMs: { type: "integer" } }, required: ["steps", "delayMs"] } as const;
/** The same long call, declared safe to repeat: a survivor runs it again when its instance dies. */
server.tool({ name: "long_read", inputSchema: stepsSchema, annotations: { readOnlyHint: true } }, (args, ctx) => long(args as { steps: number; delayMs: number }, ctx));
/** Registers a tool on this instance only (a list change; the same name on every instance is a deploy-wide one). */
server.tool({ name: "register", inputSchema: { type: "object", properties: { tool: { type: "string" } }, required: ["tool"] } }, ({ tool }) => {
  server.tool({ name: tool, inputSchema: { type: "object" } }, () => tool);
  return `${name} registered ${tool}`;
});
server.tool({ name: "long", inputSchema: stepsSchema }, (args, ctx) => long(args as { steps: number; delayMs: number }, ctx));
server.tool({ name: "touch", inputSchema: { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] } }, ({ uri }) => `${name} notified ${server.resourceUpdated(uri)}`);
server.tool({ name: "confirm", inputSchema: { type: "object" } }, async (_args, ctx) => {
  const answer = await ctx.elicit({ message: "sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } });
  return `${name} heard ${answer.action}`;
});
server.resource({ uri: "test://watched", name: "watched" }, () => ({ contents: [{ uri: "test://watched", text: "x" }] }));

const handler = createNodeHttpHandler({
  connect: (transport, { sessionId, shared }) => server.connect(transport, { sessionId, ...(shared ? { shared } : {}) }),
  ...(stores
    ? { eventStore: stores.eventStore, shared: { ...stores.handlerOptions.shared, repeatable: server.repeatable, leaseMs: Number(process.env.LEASE_MS ?? "3000") } }
    : { eventStore: createMemoryEventStore() }),
  closeSseAfterMs: Number(process.env.CLOSE_SSE_AFTER_MS ?? "0"),
  keepAliveMs: 1_000,
});
const http = createHttpServer((req, res) => {
  res.setHeader("x-instance", name);
  if (req.url === "/health") {
    res.end("ok");
    return;
  }
  void handler(req, res);
});
http.listen(port, "127.0.0.1", () => {
  const address = http.address();
  process.stdout.write(`listening ${typeof address === "object" && address !== null ? address.port : port}\n`);
});
process.on("SIGTERM", () => {
  void (async () => {
    http.close();
    await server.close();
    await stores?.close();
    process.exit(0);
  })();
});
