// --- server (Node adapter) ---
export { createNodeHttpHandler, createNodeHttpServer } from "./server/node-adapter";
export type { NodeHttpHandler, NodeHttpHandlerOptions, NodeServerLimits } from "./server/node-adapter";
// --- end server ---
