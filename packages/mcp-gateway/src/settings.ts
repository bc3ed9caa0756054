/**
 * `createGateway`'s options, checked and with their defaults: every mistake is a `TypeError`
 * that names the option and says what is accepted.
 */
import type { Logger } from "@proto/jsonrpc";
import { isGatewayName } from "@proto/mcp-apps";
import type { ChildSettings } from "./child";
import { childTransportFactory } from "./child-transport";
import { compileFilter } from "./filters";
import type { NamePredicate } from "./filters";
import { isGatewayChildName } from "./naming";
import type { NameStyle } from "./naming";
import type { ChildConfig, GatewayOptions, StdioSpawner } from "./types";

const SILENT: Logger = { warn() {}, error() {} };

/** The resolved options. */
export interface GatewaySettings {
  readonly name: string;
  readonly version: string;
  readonly children: { readonly [name: string]: ChildConfig };
  readonly separator: string;
  readonly style: NameStyle;
  readonly bareNames: "unique" | "off";
  readonly readyTimeoutMs: number;
  readonly sessions: "shared" | "isolated";
  readonly restart: ChildSettings["restart"];
  readonly stdio: StdioSpawner | undefined;
  readonly logger: Logger;
  filters(child: string): { readonly tools: NamePredicate; readonly prompts: NamePredicate; readonly resources: NamePredicate };
}

function ms(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new TypeError(`${what} must be a number of milliseconds >= 0, got ${String(value)}`);
  return value;
}

function oneOf<T extends string>(value: T | undefined, allowed: readonly T[], fallback: T, what: string): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) throw new TypeError(`${what} must be ${allowed.map((a) => JSON.stringify(a)).join(" or ")}, got ${JSON.stringify(value)}`);
  return value;
}

/** Checks `options`. */
export function resolveSettings(options: GatewayOptions): GatewaySettings {
  if (typeof options !== "object" || options === null) throw new TypeError("createGateway(options): pass { name, children }");
  if (!isGatewayName(options.name) || options.name.includes(".")) {
    throw new TypeError(`createGateway: name ${JSON.stringify(options.name)} must be a lowercase DNS label (a-z, 0-9, '-'), e.g. "gw": it becomes the host of rewritten ui:// URIs`);
  }
  if (typeof options.children !== "object" || options.children === null) throw new TypeError("createGateway: children must be an object { name: config }");
  for (const name of Object.keys(options.children)) {
    if (!isGatewayChildName(name)) {
      throw new TypeError(`createGateway: child name ${JSON.stringify(name)} must be 1-32 of a-z, 0-9 and '-', starting and ending with a letter or digit (no '_' or '.': names must never contain the separator)`);
    }
  }
  const separator = oneOf(options.separator, ["__", "."], "__", "separator");
  const style = oneOf(options.nameStyle, ["provider", "spec"], separator === "." ? "spec" : "provider", "nameStyle");
  if (separator === "." && style === "provider") throw new TypeError('separator "." needs nameStyle "spec": hosts that use the provider style reject dots in tool names');
  const filters = new Map(Object.entries(options.children).map(([name, c]) => [name, { tools: compileFilter(c.tools), prompts: compileFilter(c.prompts), resources: compileFilter(c.resources) }]));
  const restart = options.restart ?? {};
  const maxCrashes = restart.maxCrashes ?? 5;
  if (!Number.isInteger(maxCrashes) || maxCrashes < 1) throw new TypeError(`restart.maxCrashes must be an integer >= 1, got ${String(maxCrashes)}`);
  return {
    name: options.name,
    version: options.version ?? "0.1.0",
    children: options.children,
    separator,
    style,
    bareNames: oneOf(options.bareNames, ["unique", "off"], "unique", "bareNames"),
    readyTimeoutMs: ms(options.readyTimeoutMs, 5_000, "readyTimeoutMs"),
    sessions: oneOf(options.sessions, ["shared", "isolated"], "shared", "sessions"),
    restart: {
      initialDelayMs: ms(restart.initialDelayMs, 500, "restart.initialDelayMs"),
      maxDelayMs: ms(restart.maxDelayMs, 30_000, "restart.maxDelayMs"),
      maxCrashes,
      windowMs: ms(restart.windowMs, 60_000, "restart.windowMs"),
    },
    stdio: options.stdio,
    logger: options.logger ?? SILENT,
    filters: (child) => filters.get(child) ?? { tools: () => true, prompts: () => true, resources: () => true },
  };
}

/** One child's settings. Throws a `TypeError` when its transport cannot be made. */
export function childSettings(settings: GatewaySettings, name: string, config: ChildConfig): ChildSettings {
  const where = `children.${name}`;
  return {
    gateway: { name: settings.name, version: settings.version },
    transport: childTransportFactory(name, config, settings.stdio),
    timeoutMs: ms(config.timeoutMs, 60_000, `${where}.timeoutMs`),
    maxTotalMs: ms(config.maxTotalMs, 600_000, `${where}.maxTotalMs`),
    startupTimeoutMs: ms(config.startupTimeoutMs, 30_000, `${where}.startupTimeoutMs`),
    protocol: oneOf(config.protocol, ["auto", "2026-07-28", "2025-11-25"], "auto", `${where}.protocol`),
    idleTimeoutMs: ms(config.idleTimeoutMs, 300_000, `${where}.idleTimeoutMs`),
    restart: settings.restart,
  };
}
