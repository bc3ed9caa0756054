/**
 * Ping/pong keep-alive for a WebSocket: a ping every interval; a peer that has not answered
 * the previous ping (nor sent anything) by the next tick is dead and gets terminated.
 */
import type { WebSocket } from "ws";

/** Stops the keep-alive timer. */
export type StopKeepAlive = () => void;

/**
 * Starts pinging `socket` every `intervalMs` (0 disables). `dead` runs once when the peer
 * missed a ping; the caller terminates the socket.
 */
export function startKeepAlive(socket: WebSocket, intervalMs: number, dead: () => void): StopKeepAlive {
  if (intervalMs === 0) return () => undefined;
  let alive = true;
  const heard = (): void => {
    alive = true;
  };
  socket.on("pong", heard);
  socket.on("message", heard);
  const timer = setInterval(() => {
    if (!alive) {
      stop();
      dead();
      return;
    }
    alive = false;
    try {
      socket.ping();
    } catch {
      // The socket is closing; its close event ends the transport.
    }
  }, intervalMs);
  timer.unref?.();
  function stop(): void {
    clearInterval(timer);
    socket.off("pong", heard);
    socket.off("message", heard);
  }
  return stop;
}
