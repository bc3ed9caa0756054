/** Recipe: node:http (README "Frameworks"). The region between the markers is the README block. */
import { server } from "./server";

// #region readme
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";

const handler = createNodeHttpHandler({ connect: (transport) => server.connect(transport) });
// slow-loris timeouts included; closing the server closes the sessions. Then: httpServer.listen(3000, "127.0.0.1")
const httpServer = createNodeHttpServer(handler);
// #endregion

export { handler, httpServer };
