/**
 * Loads `ws`, an optional peer dependency: only the WebSocket transports need it, so an app
 * serving Streamable HTTP from `@proto/transport-http/node` never installs it. Loaded on first
 * use (synchronously: `ws` is CommonJS), with an error that says what to install.
 */
import { createRequire } from "node:module";
import type * as Ws from "ws";

let loaded: typeof Ws | undefined;

/** Returns the `ws` module, or throws a `TypeError` naming `feature` and the install command. */
export function loadWs(feature: string): typeof Ws {
  if (loaded) return loaded;
  try {
    loaded = createRequire(import.meta.url)("ws") as typeof Ws;
  } catch (cause) {
    throw new TypeError(`${feature} needs the WebSocket library "ws" (an optional peer dependency): npm install ws@^8`, { cause });
  }
  return loaded;
}
