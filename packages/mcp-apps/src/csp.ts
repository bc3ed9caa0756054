/**
 * CSP source checks for MCP Apps resource metadata (SEP-1865 "UI Resource Format", CSP).
 * Hosts join the declared domains with spaces into a `Content-Security-Policy` header, so an
 * entry with a space, `;` or `,` would inject directives: only plain origins are accepted.
 */

const SCHEME = "(?:(?:https?|wss?)://)?";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOST = `(?:(?:\\*\\.)?${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]{2,45}\\])`;
const PORT = "(?::(?:[0-9]{1,5}|\\*))?";
const PATH = "(?:/[A-Za-z0-9\\-._~%/]*)?";
const SOURCE = new RegExp(`^${SCHEME}${HOST}${PORT}${PATH}$`);

/** Longest accepted CSP entry, in characters. */
export const MAX_CSP_SOURCE_LENGTH = 2048;
/** Most entries accepted in one CSP list. */
export const MAX_CSP_SOURCES = 256;

/** The CSP lists of `_meta.ui.csp`, in the order they are serialised. */
export const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;

/**
 * True when `value` is an origin a host can put in a CSP directive as it is:
 * `[scheme://]host[:port][/path]` with scheme http, https, ws or wss, an optional leading
 * `*.` wildcard label, and nothing that could end or split a directive.
 */
export function isCspSource(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_CSP_SOURCE_LENGTH && SOURCE.test(value);
}

/** Why `value` is not a CSP source, as a sentence that says what to write instead. */
export function describeCspSource(value: unknown): string {
  if (typeof value !== "string") return `${JSON.stringify(value) ?? String(value)} is not a string; write an origin such as "https://api.example.com"`;
  if (value === "*" || /^[a-z]+:$/i.test(value)) return `"${value}" allows any origin; list the origins the view needs, e.g. "https://api.example.com"`;
  if (value.startsWith("'")) return `"${value}" is a CSP keyword; the host sets keywords itself, list origins only`;
  if (/[\s;,'"]/.test(value)) return `"${value.slice(0, 80)}" contains a space, ';', ',' or a quote, which would inject CSP directives; list one origin per entry`;
  return `"${value.slice(0, 80)}" is not an origin; write [scheme://]host[:port] with scheme http, https, ws or wss, e.g. "https://*.example.com"`;
}
