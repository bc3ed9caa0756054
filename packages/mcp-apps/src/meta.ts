/**
 * Checking and canonical serialisation of `_meta.ui` (SEP-1865 "UI Resource Format" and
 * "Resource Discovery"). The same metadata always serialises to the same JSON: fixed key
 * order, CSP lists de-duplicated and sorted, empty lists left out.
 */
import { CSP_KEYS, describeCspSource, isCspSource, MAX_CSP_SOURCES } from "./csp";
import type { UiResourceCsp, UiResourceMeta, UiResourcePermissions } from "./types";

/** The permissions of `_meta.ui.permissions`, in the order they are serialised. */
export const PERMISSION_KEYS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;

/** Problems found in metadata: `errors` make it unusable, `warnings` are keys the spec does not define. */
export interface MetaProblems {
  readonly errors: string[];
  readonly warnings: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function checkCsp(csp: unknown, out: MetaProblems): void {
  if (!isRecord(csp)) return void out.errors.push("csp must be an object of origin lists");
  for (const key of Object.keys(csp)) {
    if (!(CSP_KEYS as readonly string[]).includes(key)) out.warnings.push(`csp.${key} is not defined by MCP Apps (known: ${CSP_KEYS.join(", ")})`);
  }
  for (const key of CSP_KEYS) {
    const list = csp[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      out.errors.push(`csp.${key} must be an array of origins`);
      continue;
    }
    if (list.length > MAX_CSP_SOURCES) out.errors.push(`csp.${key} has ${list.length} entries; at most ${MAX_CSP_SOURCES} are accepted`);
    for (const entry of list.slice(0, MAX_CSP_SOURCES)) if (!isCspSource(entry)) out.errors.push(`csp.${key}: ${describeCspSource(entry)}`);
  }
}

function checkPermissions(permissions: unknown, out: MetaProblems): void {
  if (!isRecord(permissions)) return void out.errors.push("permissions must be an object such as { camera: {} }");
  for (const [key, value] of Object.entries(permissions)) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(key)) {
      out.warnings.push(`permissions.${key} is not defined by MCP Apps (known: ${PERMISSION_KEYS.join(", ")})`);
    } else if (!isRecord(value)) {
      out.errors.push(`permissions.${key} must be {} to request it (the stable spec uses an empty object, not ${JSON.stringify(value) ?? String(value)}); leave it out otherwise`);
    }
  }
}

/** Checks `_meta.ui` of a UI resource or read content as it came off the wire. Never throws. */
export function checkUiResourceMeta(value: unknown): MetaProblems {
  const out: MetaProblems = { errors: [], warnings: [] };
  if (!isRecord(value)) {
    out.errors.push("_meta.ui must be an object");
    return out;
  }
  for (const key of Object.keys(value)) {
    if (!["csp", "permissions", "domain", "prefersBorder"].includes(key)) out.warnings.push(`_meta.ui.${key} is not defined by MCP Apps for resources`);
  }
  if (value.csp !== undefined) checkCsp(value.csp, out);
  if (value.permissions !== undefined) checkPermissions(value.permissions, out);
  const domain = value.domain;
  if (domain !== undefined && (typeof domain !== "string" || domain === "" || domain.length > 253 || /[\s\u0000-\u001f\u007f;,'"]/.test(domain))) {
    out.errors.push("domain must be a host name such as \"a904794854a047f6.claudemcpcontent.com\" (the format is host-specific)");
  }
  if (value.prefersBorder !== undefined && typeof value.prefersBorder !== "boolean") out.errors.push("prefersBorder must be true or false");
  return out;
}

function canonicalCsp(csp: UiResourceCsp | undefined): UiResourceCsp | undefined {
  if (csp === undefined) return undefined;
  const out: { [K in (typeof CSP_KEYS)[number]]?: string[] } = {};
  for (const key of CSP_KEYS) {
    const list = csp[key];
    if (list !== undefined && list.length > 0) out[key] = [...new Set(list)].sort();
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

function canonicalPermissions(permissions: UiResourcePermissions | undefined): UiResourcePermissions | undefined {
  if (permissions === undefined) return undefined;
  const out: { [K in (typeof PERMISSION_KEYS)[number]]?: Record<string, never> } = {};
  for (const key of PERMISSION_KEYS) if (permissions[key] !== undefined) out[key] = {};
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * Checks metadata given to `apps.resource()` and returns its canonical form (undefined when
 * it says nothing). Throws a `TypeError` listing every problem; unknown keys are problems
 * here too, since they are most often typos.
 */
export function canonicalUiResourceMeta(meta: UiResourceMeta | undefined, where: string): UiResourceMeta | undefined {
  if (meta === undefined) return undefined;
  const problems = checkUiResourceMeta(meta);
  const all = [...problems.errors, ...problems.warnings];
  if (all.length > 0) throw new TypeError(`${where}: invalid ui metadata:\n- ${all.join("\n- ")}`);
  const csp = canonicalCsp(meta.csp);
  const permissions = canonicalPermissions(meta.permissions);
  const out: { -readonly [K in keyof UiResourceMeta]: UiResourceMeta[K] } = {};
  if (csp !== undefined) out.csp = csp;
  if (permissions !== undefined) out.permissions = permissions;
  if (meta.domain !== undefined) out.domain = meta.domain;
  if (meta.prefersBorder !== undefined) out.prefersBorder = meta.prefersBorder;
  return Object.keys(out).length === 0 ? undefined : out;
}
