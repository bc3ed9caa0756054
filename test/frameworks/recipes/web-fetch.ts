/** Recipe: a Web `fetch` handler, no framework (README "Frameworks"). */
import { server } from "./server";

// #region readme
import { createStreamableHttpHandler } from "@proto/transport-http";

const handler = createStreamableHttpHandler({ connect: (transport) => server.connect(transport) });
export default { fetch: handler }; // Workers, Bun; Deno.serve(handler); or call handler(request) yourself
// #endregion

export { handler };
