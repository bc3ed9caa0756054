/**
 * The loopback redirect of RFC 8252 §7.3 for CLI hosts (Node only): each authorization binds
 * a tiny HTTP server on 127.0.0.1, opens the authorization URL through a pluggable opener,
 * and resolves with the first callback that carries the request's `state` (others get a 400
 * and are ignored, so a local process cannot cut the flow short with a forged callback).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "@proto/jsonrpc";
import { abortError, OAuthError, OAuthFaultCode } from "./errors";
import { openBrowser } from "./node-browser";
import type { RedirectHandler, RedirectSession } from "./redirect";

/** Options of `createLoopbackRedirect`. */
export interface LoopbackRedirectOptions {
  /** The port to listen on (default 0: any free port). Fix it when the server wants exact redirect URIs. */
  readonly port?: number;
  /** The host of the redirect URI (default `127.0.0.1`, as RFC 8252 §7.3 recommends). */
  readonly hostname?: "127.0.0.1" | "localhost" | "[::1]";
  /** The callback path (default `/callback`). */
  readonly path?: string;
  /** Opens the authorization URL (default `openBrowser`). A failure is logged; the listener keeps waiting. */
  readonly open?: (url: URL) => Promise<void> | void;
  /** Receives the authorization URL before it is opened (print it for users to paste). */
  readonly onAuthorizationUrl?: (url: URL) => void;
  /** How long to wait for the user (default 5 minutes). */
  readonly timeoutMs?: number;
  /** The page shown after the redirect (default: a short "you can close this window"). */
  readonly successHtml?: string;
  readonly logger?: Logger;
}

const PAGE = (text: string): string =>
  `<!doctype html><meta charset="utf-8"><title>Authorization</title><body style="font-family:sans-serif;margin:3em">${text}</body>`;

/** Creates the loopback redirect handler. Each session's listener closes when its authorization ends. */
export function createLoopbackRedirect(options: LoopbackRedirectOptions = {}): RedirectHandler {
  const hostname = options.hostname ?? "127.0.0.1";
  const path = options.path ?? "/callback";
  if (!path.startsWith("/")) throw new TypeError(`createLoopbackRedirect: path must start with "/", got ${JSON.stringify(path)}.`);
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new TypeError(`createLoopbackRedirect: port must be 0..65535, got ${String(port)}.`);
  return {
    async begin(signal?: AbortSignal): Promise<RedirectSession> {
      if (signal?.aborted === true) throw abortError(signal);
      const server = createServer();
      const bindHost = hostname === "localhost" ? "127.0.0.1" : hostname.replace(/[[\]]/g, "");
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, bindHost, () => {
          server.off("error", reject);
          resolve();
        });
      });
      const redirectUri = `http://${hostname}:${(server.address() as AddressInfo).port}${path}`;
      return createSession(server, redirectUri, path, options);
    },
  };
}

function createSession(server: Server, redirectUri: string, path: string, options: LoopbackRedirectOptions): RedirectSession {
  let closed = false;
  return {
    redirectUri,
    complete: (authorizationUrl, signal) =>
      new Promise<URL>((resolve, reject) => {
        const expectedState = authorizationUrl.searchParams.get("state");
        const timeoutMs = options.timeoutMs ?? 300_000;
        const timer = setTimeout(() => finish(new OAuthError(OAuthFaultCode.Timeout, `Nobody completed the authorization within ${timeoutMs} ms.`)), timeoutMs);
        const onAbort = (): void => finish(abortError(signal as AbortSignal));
        function finish(outcome: URL | OAuthError): void {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          server.off("request", onRequest);
          if (outcome instanceof URL) resolve(outcome);
          else reject(outcome);
        }
        function onRequest(request: IncomingMessage, response: ServerResponse): void {
          const url = new URL(request.url ?? "/", redirectUri);
          const reply = (status: number, text: string): void => {
            response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", connection: "close" });
            response.end(PAGE(text));
          };
          if (request.method !== "GET" || url.pathname !== path) return reply(404, "Not found.");
          if (url.searchParams.get("state") !== expectedState) return reply(400, "This authorization response does not belong to the pending request.");
          const failed = url.searchParams.has("error");
          reply(200, failed ? "Authorization failed. You can close this window." : (options.successHtml ?? "Authorization complete. You can close this window."));
          finish(url);
        }
        if (signal?.aborted === true) return finish(abortError(signal));
        signal?.addEventListener("abort", onAbort, { once: true });
        server.on("request", onRequest);
        options.onAuthorizationUrl?.(authorizationUrl);
        Promise.resolve()
          .then(() => (options.open ?? openBrowser)(authorizationUrl))
          .catch((error: unknown) => options.logger?.warn("Could not open the browser; open the authorization URL by hand.", error));
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
