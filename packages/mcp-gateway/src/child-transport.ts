/**
 * The transport factory of a child, from its config: a stdio command (through the injected
 * spawner, so this module stays runtime-neutral), Streamable HTTP with the legacy fallback,
 * legacy SSE only, or a transport the caller makes. Credentials come from the child's config
 * only; nothing of the upstream client's request is ever forwarded.
 */
import type { Transport } from "@proto/jsonrpc";
import { createHttpClientTransport, createSseClientTransport, staticToken } from "@proto/transport-http";
import type { HttpAuth } from "@proto/transport-http";
import type { ChildConfig, RemoteAuth, RemoteChildConfig, StdioChildConfig, StdioSpawner, TransportChildConfig } from "./types";

/** True for a stdio child. */
export function isStdioChild(config: ChildConfig): config is StdioChildConfig {
  return "command" in config;
}

/** True for a remote child. */
export function isRemoteChild(config: ChildConfig): config is RemoteChildConfig {
  return "url" in config;
}

function env(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return proc?.env?.[name];
}

/** Replaces `${env:NAME}` with this process's NAME (empty when unset). */
export function expandEnv(value: string): string {
  return value.replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env(name) ?? "");
}

function httpAuth(child: string, auth: RemoteAuth | undefined): HttpAuth | undefined {
  if (auth === undefined) return undefined;
  if ("bearerEnv" in auth) {
    const token = env(auth.bearerEnv);
    if (token === undefined || token === "") throw new TypeError(`children.${child}.auth.bearerEnv: the variable ${auth.bearerEnv} is not set; export it before starting the gateway`);
    return staticToken(token);
  }
  if ("bearer" in auth) return staticToken(auth.bearer);
  return auth;
}

function headers(config: RemoteChildConfig): Record<string, string> | undefined {
  if (config.headers === undefined) return undefined;
  return Object.fromEntries(Object.entries(config.headers).map(([k, v]) => [k, expandEnv(v)]));
}

/** The factory that makes a fresh transport for each start of `child`. Throws a `TypeError` for a stdio child without a spawner. */
export function childTransportFactory(child: string, config: ChildConfig, spawn: StdioSpawner | undefined): () => Transport | Promise<Transport> {
  if (isStdioChild(config)) {
    if (spawn === undefined) {
      throw new TypeError(`children.${child} is a stdio command: pass createGateway({ stdio: stdioTransport }) with stdioTransport from "@proto/mcp-gateway/node"`);
    }
    return () => spawn(config, child);
  }
  if (isRemoteChild(config)) {
    return () => {
      const options = { auth: httpAuth(child, config.auth), headers: headers(config) };
      return config.type === "sse" ? createSseClientTransport(config.url, options) : createHttpClientTransport(config.url, options);
    };
  }
  return (config as TransportChildConfig).transport;
}
