/** Recipe: Express 5 (README "Frameworks"). The region between the markers is the README block. */
import { server } from "./server";

// #region readme
import express from "express";
import { createNodeHttpHandler } from "@proto/transport-http/node";

const handler = createNodeHttpHandler({ connect: (transport) => server.connect(transport) });
const app: express.Express = express();
app.use(express.json({ limit: "4mb" })); // optional: a body express.json() parsed is used as is
app.all("/mcp", handler);
// #endregion

export { app, handler };
