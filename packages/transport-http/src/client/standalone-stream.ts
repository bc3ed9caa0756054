/**
 * The standalone GET stream that carries server-initiated requests and notifications
 * (MCP 2025-11-25, basic/transports, "Listening for Messages from the Server"). Opened after
 * initialization; a 405 means the server offers none; reopened with `Last-Event-ID` when it drops.
 */
import { decode } from "@proto/jsonrpc";
import type { ClientCore } from "./client-core";
import { runResumableStream } from "./resumable-stream";

/** Controls the standalone stream of one transport. */
export interface StandaloneStream {
  /** Opens the stream unless it is open or the server said it offers none. */
  open(): void;
  /** Stops the stream (for example when its session is replaced); `open` may start a new one. */
  stop(): void;
}

/** Creates the standalone stream controller; `sessionGone` runs when the GET is answered 404. */
export function createStandaloneStream(core: ClientCore, sessionGone: (sessionId: string) => void): StandaloneStream {
  let current: AbortController | undefined;
  let unsupported = false;

  function run(controller: AbortController): void {
    const stopOnClose = (): void => controller.abort();
    core.signal.addEventListener("abort", stopOnClose, { once: true });
    const sessionId = core.sessionId;
    let announced = false;
    void runResumableStream(undefined, {
      stream: "standalone",
      url: core.url,
      open: async (lastEventId) => {
        const response = await core.request({ method: "GET", url: core.url, headers: core.getHeaders(lastEventId), signal: controller.signal });
        if (response.ok && !announced) {
          announced = true;
          core.emit({ type: "standalone-stream", state: "open" });
        }
        return response;
      },
      message: (data) => {
        core.deliver(decode(data, core.limits));
        return false;
      },
      fault: (error) => core.fault(error),
      emit: (event) => core.emit(event),
      reconnect: core.reconnect,
      maxEventChars: core.limits.maxMessageBytes,
      signal: controller.signal,
    }).then((outcome) => {
      core.signal.removeEventListener("abort", stopOnClose);
      if (current === controller) current = undefined;
      if (outcome.kind === "unsupported") {
        unsupported = true;
        core.emit({ type: "standalone-stream", state: "unsupported" });
      } else if (outcome.kind === "session-gone") {
        if (sessionId !== undefined) sessionGone(sessionId);
      } else if (outcome.kind === "failed") {
        core.emit({ type: "standalone-stream", state: "failed", cause: outcome.error });
        core.fault(outcome.error);
      }
    }).catch((error: unknown) => core.fault(error));
  }

  return {
    open() {
      if (current || unsupported || core.signal.aborted) return;
      current = new AbortController();
      run(current);
    },
    stop() {
      current?.abort();
      current = undefined;
    },
  };
}
