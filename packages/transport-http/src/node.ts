// --- server (Node adapter) ---
export { createNodeHttpHandler, createNodeHttpServer } from "./server/node-adapter";
export type { NodeHttpHandler, NodeHttpHandlerOptions, NodeServerLimits } from "./server/node-adapter";
// --- end server ---
// --- client (token command) and WebSocket ---
export { commandToken } from "./client/command-token";
export type { CommandTokenOptions } from "./client/command-token";
export { createWebSocketClientTransport } from "./websocket/ws-client";
export type { WebSocketClientOptions } from "./websocket/ws-client";
export { createWebSocketServer } from "./websocket/ws-server";
export type { WebSocketServerOptions, WebSocketServerHandle } from "./websocket/ws-server";
export type { UpgradeAuthOptions } from "./websocket/ws-auth";
export { MCP_SUBPROTOCOL } from "./websocket/ws-transport";
export type { WebSocketLimits } from "./websocket/ws-transport";
// --- end client and WebSocket ---
