/**
 * Child process of test/one-answer/one-answer.prop.test.ts: the test server (`serveOn`) on this
 * process's stdin/stdout through the stdio server transport; it exits once its input ends and
 * every owed answer was written.
 */
import { createStdioServerTransport } from "@proto/transport-stdio/node";
import { serveOn } from "./model";

const transport = createStdioServerTransport();
await serveOn(transport);
