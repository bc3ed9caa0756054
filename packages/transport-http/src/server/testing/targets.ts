/**
 * Test fixture (not part of the package surface): the same handler options served by either
 * adapter, so one test table checks both: `node` on a real socket, `web` called in-process with
 * `Request` objects.
 */
import { createStreamableHttpHandler } from "../web";
import type { NodeHttpHandlerOptions } from "../node-adapter";
import { serve } from "./net";

/** Which adapter serves the handler. */
export type AdapterKind = "node" | "web";

/** A started handler and a `fetch` that reaches it. */
export interface Target {
  readonly url: string;
  fetch(url: string, init?: RequestInit): Promise<Response>;
  readonly sessionCount: number;
  sweep(): number;
  close(): Promise<void>;
}

/** Starts `options` on the given adapter. */
export async function startTarget(kind: AdapterKind, options: NodeHttpHandlerOptions): Promise<Target> {
  if (kind === "node") {
    const running = await serve(options);
    return {
      url: running.url,
      fetch: (url, init) => fetch(url, init),
      get sessionCount() {
        return running.handler.sessionCount;
      },
      sweep: () => running.handler.sweep(),
      close: () => running.close(),
    };
  }
  const handler = createStreamableHttpHandler(options);
  return {
    url: "http://127.0.0.1/mcp",
    fetch: (url, init) => handler(new Request(url, init)),
    get sessionCount() {
      return handler.sessionCount;
    },
    sweep: () => handler.sweep(),
    close: () => handler.close(),
  };
}
