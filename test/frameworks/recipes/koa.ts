/** Recipe: Koa (README "Frameworks"). The region between the markers is the README block. */
import { server } from "./server";

// #region readme
import Koa from "koa";
import { bodyParser } from "@koa/bodyparser";
import { createNodeHttpHandler } from "@proto/transport-http/node";

const handler = createNodeHttpHandler({ connect: (transport) => server.connect(transport) });
const app = new Koa();
app.use(bodyParser()); // optional: a body read before the handler is passed on
app.use(async (ctx, next) => {
  if (ctx.path !== "/mcp") return next();
  ctx.respond = false; // the handler writes the response itself
  handler(ctx.req, ctx.res, ctx.request.body);
});
// #endregion

export { app, handler };
