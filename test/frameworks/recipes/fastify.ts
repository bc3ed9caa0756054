/** Recipe: Fastify 5 (README "Frameworks"). The region between the markers is the README block. */
import { server } from "./server";

// #region readme
import Fastify from "fastify";
import { createNodeHttpHandler } from "@proto/transport-http/node";

const handler = createNodeHttpHandler({ connect: (transport) => server.connect(transport) });
const app = Fastify({ bodyLimit: 4 * 1024 * 1024, forceCloseConnections: true });
// Fastify reads the body: keep it as bytes, so the handler decodes it with its own limits and errors.
app.removeContentTypeParser("application/json");
app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => done(null, body));
app.all("/mcp", (request, reply) => {
  reply.hijack(); // the handler writes the response (JSON or an SSE stream) itself
  handler(request.raw, reply.raw, request.body);
});
app.addHook("preClose", () => handler.close()); // end the sessions (and their SSE streams) first
// #endregion

export { app, handler };
