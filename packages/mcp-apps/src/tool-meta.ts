/**
 * Tool links (SEP-1865 "Resource Discovery" and "Visibility"): reading a tool's `_meta.ui`
 * (or the deprecated flat `_meta["ui/resourceUri"]`) and writing it back in the one nested,
 * canonical form: `{ resourceUri?, visibility }`, visibility always explicit, `model` first.
 */
import type { Meta } from "@proto/mcp-protocol";
import { isUiUri, LEGACY_RESOURCE_URI_KEY, UI_META_KEY } from "./constants";
import type { UiToolMeta, UiVisibility } from "./types";

/** The visibility a tool has when it declares none. */
export const DEFAULT_VISIBILITY: readonly UiVisibility[] = Object.freeze(["model", "app"]);

/** What a tool's metadata says about UI, read leniently: problems are collected, not thrown. */
export interface ToolUi {
  readonly resourceUri: string | undefined;
  readonly visibility: readonly UiVisibility[];
  /** Why the metadata is unusable (empty when fine). */
  readonly problems: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Canonical visibility, or a problem. Order is fixed (`model`, `app`) so equal sets serialise equally. */
function readVisibility(value: unknown): { visibility: UiVisibility[]; problem?: string } {
  if (value === undefined) return { visibility: [...DEFAULT_VISIBILITY] };
  const bad = { visibility: [...DEFAULT_VISIBILITY], problem: 'visibility must be a non-empty array of "model" and/or "app"' };
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => v !== "model" && v !== "app")) return bad;
  return { visibility: DEFAULT_VISIBILITY.filter((v) => value.includes(v)) };
}

/** Reads the UI link of a tool's `_meta`; undefined when the tool declares none. Never throws. */
export function readToolUi(meta: Meta | undefined): ToolUi | undefined {
  if (!isRecord(meta)) return undefined;
  const nested = meta[UI_META_KEY];
  const legacy = meta[LEGACY_RESOURCE_URI_KEY];
  if (nested === undefined && legacy === undefined) return undefined;
  const problems: string[] = [];
  if (nested !== undefined && !isRecord(nested)) problems.push("_meta.ui must be an object { resourceUri?, visibility? }");
  const ui = isRecord(nested) ? nested : {};
  const uri = ui.resourceUri ?? legacy;
  if (uri !== undefined && !isUiUri(uri)) problems.push(`resourceUri must be a ui:// URI, got ${JSON.stringify(uri)?.slice(0, 200) ?? String(uri)}`);
  const { visibility, problem } = readVisibility(ui.visibility);
  if (problem !== undefined) problems.push(problem);
  return { resourceUri: typeof uri === "string" ? uri : undefined, visibility, problems };
}

/** True when the model may not see the tool (`visibility` without `"model"`). */
export function isAppOnly(ui: ToolUi | undefined): boolean {
  return ui !== undefined && !ui.visibility.includes("model");
}

/** The canonical nested `_meta.ui` of a tool. */
export function toToolUiMeta(ui: ToolUi): UiToolMeta {
  return ui.resourceUri === undefined ? { visibility: [...ui.visibility] } : { resourceUri: ui.resourceUri, visibility: [...ui.visibility] };
}

/** `_meta` without the UI keys (nested and flat); undefined when nothing else is left. */
export function withoutUiMeta(meta: Meta | undefined): Meta | undefined {
  if (meta === undefined) return undefined;
  const { [UI_META_KEY]: _ui, [LEGACY_RESOURCE_URI_KEY]: _legacy, ...rest } = meta;
  return Object.keys(rest).length === 0 ? undefined : rest;
}

/**
 * Checks the `ui` given to `apps.tool()` and returns the canonical `_meta.ui`. Throws a
 * `TypeError` that says what to fix.
 */
export function canonicalToolMeta(ui: UiToolMeta, where: string): UiToolMeta {
  if (!isRecord(ui)) throw new TypeError(`${where}: ui must be an object { resourceUri?, visibility? }`);
  const unknown = Object.keys(ui).filter((k) => k !== "resourceUri" && k !== "visibility");
  if (unknown.length > 0) throw new TypeError(`${where}: ui has unknown keys ${unknown.join(", ")}; a tool declares only resourceUri and visibility (CSP and permissions belong on the resource)`);
  const read = readToolUi({ [UI_META_KEY]: ui });
  if (read === undefined || read.problems.length > 0) throw new TypeError(`${where}: ${read?.problems.join("; ") ?? "ui is missing"}`);
  if (read.resourceUri === undefined && read.visibility.length === DEFAULT_VISIBILITY.length) {
    throw new TypeError(`${where}: ui says nothing; give a resourceUri (the view to render) or a visibility other than the default (["app"] for tools only the view calls)`);
  }
  return toToolUiMeta(read);
}
