/**
 * Tool names valid for language-model providers, with the mapping back. OpenAI function
 * names and Anthropic tool names must both match `^[a-zA-Z0-9_-]{1,64}$`; MCP tool names
 * may hold dots, slashes, non-ASCII letters and be longer. Names are made valid, prefixed
 * with their server when tools of several servers are mixed, and kept distinct. The same map
 * names a gateway's tools and prompts (`@proto/mcp-gateway`), where the `"spec"` style allows
 * the dots of MCP's own tool-name rule (2025-11-25 server/tools "Tool names": 1-128 of
 * `[A-Za-z0-9_.-]`).
 */

/**
 * The characters and default length of valid names: `"provider"` (default) `[A-Za-z0-9_-]`,
 * at most 64 (OpenAI, Anthropic, and hosts that reject dots); `"spec"` `[A-Za-z0-9_.-]`, at most 128.
 */
export type ToolNameStyle = "provider" | "spec";

/** An MCP tool, named by its server (when there are several) and its name. */
export interface ToolTarget {
  /** The server key the tool came from, when tools of several servers are mixed. */
  readonly server?: string;
  /** The MCP tool name, exactly as the server lists it. */
  readonly name: string;
}

/** Options of `createToolNameMap`. */
export interface ToolNameOptions {
  /** Longest name allowed. Default 64 (OpenAI and Anthropic) for `"provider"`, 128 for `"spec"`. */
  readonly maxLength?: number;
  /** Put between the server key and the tool name. Default `"__"`. */
  readonly separator?: string;
  /** Which characters a name may hold. Default `"provider"`. */
  readonly style?: ToolNameStyle;
}

/** A two-way mapping between MCP tools and provider-valid names. */
export interface ToolNameMap {
  /** The provider name of an MCP tool, or `undefined` when the tool was not in the set. */
  toProvider(name: string, server?: string): string | undefined;
  /** The MCP tool a provider name stands for, or `undefined` for a name the model made up. */
  toMcp(providerName: string): ToolTarget | undefined;
  /** Every mapping, in input order. */
  readonly entries: readonly (ToolTarget & { readonly provider: string })[];
}

const STYLES: { readonly [S in ToolNameStyle]: { readonly max: number; readonly valid: RegExp; readonly invalid: RegExp } } = {
  provider: { max: 64, valid: /^[a-zA-Z0-9_-]+$/, invalid: /[^a-zA-Z0-9_-]/g },
  spec: { max: 128, valid: /^[a-zA-Z0-9_.-]+$/, invalid: /[^a-zA-Z0-9_.-]/g },
};

function styleOf(style: unknown): (typeof STYLES)[ToolNameStyle] {
  if (style === undefined) return STYLES.provider;
  if (style !== "provider" && style !== "spec") throw new TypeError(`style must be "provider" or "spec", got ${JSON.stringify(style)}`);
  return STYLES[style];
}

/**
 * True when `name` is a valid tool name of `style` (default `"provider"`: an OpenAI/Anthropic
 * name) of at most `maxLength` characters (default: the style's, 64 or 128).
 */
export function isValidToolName(name: string, maxLength?: number, style?: ToolNameStyle): boolean {
  const rules = styleOf(style);
  return name.length >= 1 && name.length <= (maxLength ?? rules.max) && rules.valid.test(name);
}

// FNV-1a over UTF-16 code units: deterministic, runtime-neutral, and only ever a tie-breaker.
function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function keyOf(target: ToolTarget): string {
  return JSON.stringify([target.server ?? null, target.name]);
}

/**
 * Maps each tool to a distinct valid name (of `options.style`). A name that is already valid, short
 * enough and unique stays as it is (prefixed `server__` when a server is given); otherwise
 * the invalid characters become `_`, and a name that then collides or is too long gets an
 * 8-hex-digit hash of the original appended. The result depends on the set of tools, not
 * their order, so names are stable across `tools/list` calls.
 */
export function createToolNameMap(targets: readonly ToolTarget[], options: ToolNameOptions = {}): ToolNameMap {
  const rules = styleOf(options.style);
  const max = options.maxLength ?? rules.max;
  if (!Number.isInteger(max) || max < 16) throw new TypeError(`maxLength must be an integer >= 16, got ${String(options.maxLength)}`);
  const separator = options.separator ?? "__";
  if (!rules.valid.test(separator) && separator !== "") throw new TypeError(`separator must match ${rules.valid.source.slice(1, -2)}* (style "${options.style ?? "provider"}"), got "${separator}"`);
  const sanitize = (text: string) => text.replace(rules.invalid, "_");
  const unique = new Map<string, ToolTarget>();
  for (const t of targets) unique.set(keyOf(t), t);
  const raw = (t: ToolTarget) => (t.server === undefined ? t.name : `${t.server}${separator}${t.name}`);
  const base = new Map<string, string>();
  const groups = new Map<string, string[]>();
  for (const [key, t] of unique) {
    const b = sanitize(raw(t)) || "tool";
    base.set(key, b);
    groups.set(b, [...(groups.get(b) ?? []), key]);
  }
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  for (const [b, keys] of groups) {
    if (b.length > max) continue;
    // A group's plain name goes to its only member, or to the one member whose name needed no change.
    const lossless = keys.filter((k) => raw(unique.get(k) as ToolTarget) === b);
    const owner = keys.length === 1 ? keys[0] : lossless.length === 1 ? lossless[0] : undefined;
    if (owner !== undefined) {
      assigned.set(owner, b);
      taken.add(b);
    }
  }
  for (const key of [...unique.keys()].sort()) {
    if (assigned.has(key)) continue;
    const stem = (base.get(key) as string).slice(0, max - 9);
    let name = `${stem}_${hash8(key)}`;
    for (let n = 1; taken.has(name); n++) name = `${stem}_${hash8(`${key}#${n}`)}`;
    assigned.set(key, name);
    taken.add(name);
  }
  const byProvider = new Map<string, ToolTarget>();
  const entries = [...unique].map(([key, t]) => {
    const provider = assigned.get(key) as string;
    const target: ToolTarget = t.server === undefined ? { name: t.name } : { server: t.server, name: t.name };
    byProvider.set(provider, target);
    return { ...target, provider };
  });
  return {
    toProvider: (name, server) => assigned.get(keyOf(server === undefined ? { name } : { server, name })),
    toMcp: (providerName) => byProvider.get(providerName),
    entries,
  };
}
