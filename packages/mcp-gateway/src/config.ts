/**
 * Config files: the registry (`{"version":1,"clis":{name:{command:[...],description,version}}}`,
 * the reference's shape) and the `mcpServers` shape desktop hosts use
 * (`{"mcpServers":{name:{command,args,env,cwd} | {url,type,headers,auth}}}`), both with the
 * gateway's per-child options. Validation reports every error with its JSON path, never just
 * the first.
 */
import { brandError } from "@proto/jsonrpc";
import { GatewayFaultCode } from "./errors";
import { CHILD_NAME } from "./naming";
import type { ChildConfig } from "./types";

/** One problem in a config file. */
export interface ConfigIssue {
  /** Where, as a dotted path (`mcpServers.weather.command`). */
  readonly path: string;
  readonly message: string;
}

/** A config that failed validation: `issues` has every problem. */
export class GatewayConfigError extends Error {
  override readonly name = "GatewayConfigError";
  /** `CONFIG_INVALID` (`GatewayFaultCode.ConfigInvalid`). */
  readonly code = GatewayFaultCode.ConfigInvalid;
  readonly issues: readonly ConfigIssue[];
  constructor(source: string, issues: readonly ConfigIssue[]) {
    super(`${source} is not a valid gateway config (${issues.length} problem${issues.length === 1 ? "" : "s"}):\n${issues.map((i) => `  ${i.path}: ${i.message}`).join("\n")}`);
    this.issues = issues;
  }
}

brandError(GatewayConfigError, "@proto/mcp-gateway:GatewayConfigError");

type Rec = { readonly [key: string]: unknown };
const isRecord = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === "string");

const COMMON = ["description", "tools", "prompts", "resources", "timeoutMs", "maxTotalMs", "startupTimeoutMs", "lifecycle", "idleTimeoutMs", "required", "disabled", "version"];
const STDIO = ["command", "args", "cwd", "env", "type"];
const REMOTE = ["url", "type", "headers", "auth"];

function checkFilter(value: unknown, path: string, issues: ConfigIssue[]): void {
  if (value === undefined) return;
  if (!isRecord(value)) return void issues.push({ path, message: "must be an object { allow?: [globs], deny?: [globs] }" });
  for (const key of Object.keys(value)) {
    if (key !== "allow" && key !== "deny") issues.push({ path: `${path}.${key}`, message: "unknown key; a filter has allow and deny" });
    else if (!isStrings(value[key])) issues.push({ path: `${path}.${key}`, message: "must be an array of glob strings (* and ?)" });
  }
}

function checkCommon(entry: Rec, path: string, issues: ConfigIssue[]): void {
  for (const key of ["timeoutMs", "maxTotalMs", "startupTimeoutMs", "idleTimeoutMs"]) {
    const v = entry[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) issues.push({ path: `${path}.${key}`, message: "must be a number of milliseconds >= 0" });
  }
  for (const key of ["required", "disabled"]) if (entry[key] !== undefined && typeof entry[key] !== "boolean") issues.push({ path: `${path}.${key}`, message: "must be true or false" });
  for (const key of ["description", "version"]) if (entry[key] !== undefined && typeof entry[key] !== "string") issues.push({ path: `${path}.${key}`, message: "must be a string" });
  if (entry.lifecycle !== undefined && entry.lifecycle !== "eager" && entry.lifecycle !== "lazy") issues.push({ path: `${path}.lifecycle`, message: 'must be "eager" or "lazy"' });
  for (const key of ["tools", "prompts", "resources"]) checkFilter(entry[key], `${path}.${key}`, issues);
}

function checkStringMap(value: unknown, path: string, issues: ConfigIssue[]): void {
  if (value === undefined) return;
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === "string")) issues.push({ path, message: "must be an object of string values" });
}

function checkEntry(entry: unknown, path: string, issues: ConfigIssue[]): void {
  if (!isRecord(entry)) return void issues.push({ path, message: "must be an object with a command (stdio) or a url (HTTP)" });
  const remote = entry.url !== undefined;
  if (!remote) {
    const c = entry.command;
    if (c === undefined) issues.push({ path: `${path}.command`, message: "is required (or give a url for an HTTP server)" });
    else if (!(typeof c === "string" && c !== "") && !(isStrings(c) && c.length > 0 && c[0] !== "")) issues.push({ path: `${path}.command`, message: "must be a non-empty string or an array of strings (program first)" });
    if (entry.args !== undefined && !isStrings(entry.args)) issues.push({ path: `${path}.args`, message: "must be an array of strings" });
    if (entry.cwd !== undefined && typeof entry.cwd !== "string") issues.push({ path: `${path}.cwd`, message: "must be a string" });
    if (entry.type !== undefined && entry.type !== "stdio") issues.push({ path: `${path}.type`, message: 'must be "stdio" for a command (or give a url)' });
    checkStringMap(entry.env, `${path}.env`, issues);
  } else {
    let ok = typeof entry.url === "string";
    try {
      if (ok) ok = ["http:", "https:"].includes(new URL(entry.url as string).protocol);
    } catch {
      ok = false;
    }
    if (!ok) issues.push({ path: `${path}.url`, message: "must be an http:// or https:// URL" });
    if (entry.type !== undefined && !["http", "sse", "streamable-http"].includes(entry.type as string)) issues.push({ path: `${path}.type`, message: 'must be "http" or "sse"' });
    checkStringMap(entry.headers, `${path}.headers`, issues);
    const auth = entry.auth;
    if (auth !== undefined && !(isRecord(auth) && (typeof auth.bearerEnv === "string" || typeof auth.bearer === "string"))) {
      issues.push({ path: `${path}.auth`, message: 'must be { "bearerEnv": "VARIABLE" } or { "bearer": "token" }' });
    }
  }
  for (const key of Object.keys(entry)) if (![...COMMON, ...(remote ? REMOTE : STDIO)].includes(key)) issues.push({ path: `${path}.${key}`, message: "unknown key" });
  checkCommon(entry, path, issues);
}

function suggest(name: string): string {
  const fixed = name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 32).replace(/-+$/, "");
  return fixed === "" ? "" : ` (e.g. "${fixed}")`;
}

function toChild(entry: Rec): ChildConfig {
  const { type, version: _version, ...rest } = entry as Rec & { type?: string };
  if (rest.url !== undefined) return { ...rest, ...(type === "sse" ? { type: "sse" } : {}) } as unknown as ChildConfig;
  return rest as unknown as ChildConfig;
}

/** Validates a parsed config file (either shape) and returns its children; throws `GatewayConfigError` with every problem. */
export function parseGatewayConfig(value: unknown, source = "the config"): { readonly [name: string]: ChildConfig } {
  const issues: ConfigIssue[] = [];
  if (!isRecord(value)) throw new GatewayConfigError(source, [{ path: "(root)", message: 'must be an object: { "mcpServers": {...} } or { "version": 1, "clis": {...} }' }]);
  const key = value.mcpServers !== undefined ? "mcpServers" : value.clis !== undefined ? "clis" : undefined;
  if (key === undefined) throw new GatewayConfigError(source, [{ path: "(root)", message: 'needs "mcpServers" (host config) or "clis" (registry)' }]);
  if (key === "clis" && value.version !== 1) issues.push({ path: "version", message: "must be 1 (the registry format this gateway reads)" });
  for (const extra of Object.keys(value)) if (extra !== key && !(key === "clis" && extra === "version")) issues.push({ path: extra, message: "unknown key" });
  const entries = value[key];
  if (!isRecord(entries)) throw new GatewayConfigError(source, [...issues, { path: key, message: "must be an object { name: server }" }]);
  const out: { [name: string]: ChildConfig } = {};
  for (const [name, entry] of Object.entries(entries)) {
    const path = `${key}.${name}`;
    if (!CHILD_NAME.test(name)) issues.push({ path, message: `the name must be 1-32 of a-z, 0-9 and '-', starting and ending with a letter or digit${suggest(name)}` });
    checkEntry(entry, path, issues);
    if (isRecord(entry)) out[name] = toChild(entry);
  }
  if (issues.length > 0) throw new GatewayConfigError(source, issues);
  return out;
}
