/**
 * Exposed names of a child's tools and prompts: `<child><separator><name>`, valid for the
 * hosts that reject dots and cap names at 64 of `[A-Za-z0-9_-]` (style `"provider"`), or for
 * the spec's `[A-Za-z0-9_.-]{1,128}` (style `"spec"`). A name that is too long, or that
 * collides with another after invalid characters became `_`, becomes
 * `<child><sep><truncated>_<hash8>`, where the hash is of the child and the original name:
 * the result depends on the set of names, never their order, and routing uses the table
 * built here (never a split of the exposed name).
 */

/** The character rules of exposed names. */
export type NameStyle = "provider" | "spec";

/** Child names: 1-32 of `a-z0-9-`, starting and ending with a letter or digit (no `_`, `.`, `+`, `/`: never inside a separator or a URI delimiter). */
export const CHILD_NAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;

const LIMITS: { readonly [S in NameStyle]: { readonly max: number; readonly invalid: RegExp } } = {
  provider: { max: 64, invalid: /[^A-Za-z0-9_-]/g },
  spec: { max: 128, invalid: /[^A-Za-z0-9_.-]/g },
};

/** True when `name` can name a child. */
export function isGatewayChildName(name: unknown): name is string {
  return typeof name === "string" && CHILD_NAME.test(name);
}

/** FNV-1a (32 bits) over UTF-16 code units, as hex: deterministic and runtime-neutral; only a tie-breaker. */
export function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** True when `name` is a valid exposed name of `style`. */
export function isExposedName(name: string, style: NameStyle): boolean {
  const { max, invalid } = LIMITS[style];
  return name.length >= 1 && name.length <= max && name.replace(invalid, "") === name;
}

/**
 * Maps each original name of one child to its exposed name. `names` must be distinct
 * (drop duplicates first: first wins). The map is injective and independent of order.
 */
export function exposeNames(child: string, names: readonly string[], separator: string, style: NameStyle): Map<string, string> {
  const { max, invalid } = LIMITS[style];
  const prefix = `${child}${separator}`;
  const sorted = [...new Set(names)].sort();
  const base = new Map<string, string>();
  const groups = new Map<string, string[]>();
  for (const name of sorted) {
    const b = `${prefix}${name.replace(invalid, "_")}`;
    base.set(name, b);
    groups.set(b, [...(groups.get(b) ?? []), name]);
  }
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const [b, members] of groups) {
    if (b.length > max) continue;
    // The plain name goes to the only member, or to the one member that needed no change.
    const lossless = members.filter((m) => `${prefix}${m}` === b);
    const owner = members.length === 1 ? members[0] : lossless.length === 1 ? lossless[0] : undefined;
    if (owner !== undefined) {
      out.set(owner, b);
      taken.add(b);
    }
  }
  for (const name of sorted) {
    if (out.has(name)) continue;
    const stem = (base.get(name) as string).slice(0, max - 9);
    let exposed = `${stem}_${hash8(`${child}\u0000${name}`)}`;
    for (let n = 1; taken.has(exposed); n++) exposed = `${stem}_${hash8(`${child}\u0000${name}\u0000${n}`)}`;
    out.set(name, exposed);
    taken.add(exposed);
  }
  return out;
}
