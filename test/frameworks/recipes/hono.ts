/** Recipe: Hono, on Node (`@hono/node-server`) or any Web runtime (README "Frameworks"). */
import { server } from "./server";

// #region readme
import { Hono } from "hono";
import { createStreamableHttpHandler } from "@proto/transport-http";

const handler = createStreamableHttpHandler({ connect: (transport) => server.connect(transport) });
const app = new Hono();
app.all("/mcp", (c) => handler(c.req.raw));
export default app; // Workers, Bun, Deno; on Node: serve({ fetch: app.fetch }) from @hono/node-server
// #endregion

export { app, handler };
