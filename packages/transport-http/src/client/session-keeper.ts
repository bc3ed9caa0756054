/**
 * The session of a Streamable HTTP client transport (MCP 2025-11-25, basic/transports,
 * "Session Management"): the id captured from the `initialize` answer, and what happens
 * when the server answers 404 for it: a transparent re-initialization (one at a time,
 * shared by every request that hit the 404), or, when that is off or fails, an expired
 * session that fails later sends until a new `initialize`.
 */
import type { ClientCore } from "./client-core";
import type { LifecycleMemory } from "./lifecycle";
import type { StandaloneStream } from "./standalone-stream";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { replayInitialization } from "./reinitialize";
import { HttpHeader } from "../shared/headers";

/** Session ids are visible ASCII (MCP 2025-11-25, basic/transports, "Session Management"). */
export const SESSION_ID_SHAPE = /^[\x21-\x7e]{1,1024}$/;

/** Controls the session of one transport. */
export interface SessionKeeper {
  /** Records the session id a response carries; throws `BAD_RESPONSE` for a malformed one. */
  capture(response: Response): void;
  /** Forgets the session: an `initialize` is going out. */
  restart(): void;
  /** Waits for a running re-initialization, then throws if the session is lost for good. */
  ready(): Promise<void>;
  /** Handles a 404 for `expired`: resolves once a new session is up, rejects with `SESSION_EXPIRED`. */
  expired(expired: string): Promise<void>;
}

/** Creates the session keeper; `reinitialize: false` turns transparent re-initialization off. */
export function createSessionKeeper(
  core: ClientCore,
  lifecycle: LifecycleMemory,
  standalone: StandaloneStream,
  reinitialize: boolean,
): SessionKeeper {
  let running: Promise<void> | undefined;
  let lost: HttpClientError | undefined;
  let replays = 0;

  function capture(response: Response): void {
    const id = response.headers.get(HttpHeader.SessionId);
    if (id === null || id === core.sessionId) return;
    if (!SESSION_ID_SHAPE.test(id)) {
      throw new HttpClientError(HttpClientFaultCode.BadResponse, "The server issued an Mcp-Session-Id that is not 1 to 1024 visible ASCII characters");
    }
    core.sessionId = id;
    core.emit({ type: "session", sessionId: id });
  }

  async function replay(expired: string): Promise<void> {
    const { initialize, initialized } = lifecycle;
    if (!initialize) throw new Error("no initialize request went out on this transport");
    const id = `proto-reinitialize-${++replays}`;
    const version = await replayInitialization(core, { initialize, initialized, id, captureSession: capture });
    core.emit({ type: "reinitialized", previousSessionId: expired, sessionId: core.sessionId, protocolVersion: version });
    if (initialized) standalone.open();
  }

  /** Resolves when no re-initialization runs, rejecting with the loss if the session is gone. */
  async function settled(): Promise<void> {
    if (running) await running;
    if (lost) throw lost;
  }

  function expired(expiredId: string): Promise<void> {
    if (core.sessionId !== expiredId) return settled();
    core.sessionId = undefined;
    standalone.stop();
    if (!reinitialize || !lifecycle.initialize) {
      lost = new HttpClientError(HttpClientFaultCode.SessionExpired, `The session ${expiredId} expired (404): send initialize again, or create a new connection`, {
        status: 404,
      });
      return Promise.reject(lost);
    }
    const attempt = replay(expiredId).catch((error: unknown) => {
      lost = error instanceof HttpClientError ? error : new HttpClientError(HttpClientFaultCode.SessionExpired, String(error), { cause: error });
    });
    running = attempt;
    void attempt.then(() => {
      if (running === attempt) running = undefined;
    });
    return settled();
  }

  return {
    capture,
    restart() {
      standalone.stop();
      core.sessionId = undefined;
      core.protocolVersion = undefined;
      lost = undefined;
    },
    ready: settled,
    expired,
  };
}
