/** Unguessable identifiers from `crypto.getRandomValues` (runtime-neutral). */

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** `bytes` random bytes as lower-case hex. */
export function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  let out = "";
  for (const byte of buffer) out += HEX[byte] as string;
  return out;
}

/** A session id: 128 random bits, 32 visible ASCII characters (MCP 2025-11-25 transports, "Session Management"). */
export function newSessionId(): string {
  return randomHex(16);
}
