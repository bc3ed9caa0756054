/**
 * The checks and choices `createCore` makes of a client's options before anything connects.
 */
import type { ClientOptions } from "./client-types";
import { checkTimeout } from "./deadline";
import type { ProtocolChoice } from "./era";
import { checkRoots } from "./server-requests";

/** Throws a TypeError that says what to fix when `options` cannot make a client. */
export function checkOptions(options: ClientOptions): void {
  if (typeof options !== "object" || options === null) throw new TypeError("createClient(options): options must be an object with at least `info: { name, version }`");
  if (typeof options.info?.name !== "string" || typeof options.info.version !== "string") {
    throw new TypeError('createClient(options): `info` must be { name, version } (strings), e.g. { name: "my-host", version: "1.0.0" }');
  }
  checkTimeout("requestTimeoutMs", options.requestTimeoutMs);
  checkTimeout("maxTotalTimeoutMs", options.maxTotalTimeoutMs);
  checkTimeout("connectTimeoutMs", options.connectTimeoutMs);
  if (options.transport !== undefined && typeof options.transport !== "function") throw new TypeError("`transport` must be a function returning a new Transport");
  if (options.roots !== undefined && typeof options.roots !== "function") checkRoots(options.roots);
  if (options.maxPages !== undefined && !(Number.isInteger(options.maxPages) && options.maxPages >= 1)) throw new TypeError("maxPages must be an integer >= 1");
  if (options.maxInputRounds !== undefined && !(Number.isInteger(options.maxInputRounds) && options.maxInputRounds >= 0)) throw new TypeError("maxInputRounds must be an integer >= 0");
  if (options.serverKey !== undefined && (typeof options.serverKey !== "string" || options.serverKey === "")) throw new TypeError("serverKey must be a non-empty string (the server's command line or origin)");
}

const PROTOCOL_CHOICES: readonly ProtocolChoice[] = ["auto", "2026-07-28", "2025-11-25"];

/** The era choice: `protocol` when given; else `probe: false` keeps to the `initialize` era; else `auto`. */
export function protocolChoice(options: ClientOptions): ProtocolChoice {
  if (options.protocol !== undefined) {
    if (!PROTOCOL_CHOICES.includes(options.protocol)) throw new TypeError(`protocol must be one of ${PROTOCOL_CHOICES.map((c) => `"${c}"`).join(", ")}`);
    return options.protocol;
  }
  return options.probe === false ? "2025-11-25" : "auto";
}

/** How long the `server/discover` probe of `auto` waits: `probe.timeoutMs`, default 5 s. */
export function probeTimeout(probe: ClientOptions["probe"]): number {
  return typeof probe === "object" && probe !== null ? probe.timeoutMs ?? 5_000 : 5_000;
}
