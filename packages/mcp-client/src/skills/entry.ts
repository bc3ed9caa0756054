/**
 * The `Skill` entry of the Skills extension (SEP-2640 "Skill Entries"): its shape, and the
 * checks a host makes before it loads a skill from it (complete `resources` or `"dynamic"`,
 * `sha256:` digests, sizes, the limits, `uri` ending in `/<frontmatter.name>/SKILL.md`).
 */
import type { JsonObject } from "@proto/mcp-protocol";
import { SkillError, SkillFaultCode } from "./errors";

/** One file of a skill, with the digest and size of its raw bytes. */
export interface SkillFile {
  /** Resource URI of the file. */
  readonly uri: string;
  /** `sha256:` and 64 lowercase hex digits of the file's raw bytes. */
  readonly digest: string;
  /** Length in bytes of the file's raw content. */
  readonly size: number;
}

/** A skill entry as `skills/list` and `skills/get` return it. */
export interface SkillEntry {
  /** Resource URI of the skill's `SKILL.md`. */
  readonly uri: string;
  /** The `SKILL.md` YAML frontmatter rendered verbatim as JSON (`name` and `description` always present). */
  readonly frontmatter: JsonObject & { readonly name: string; readonly description: string };
  /** Every file of the skill (SKILL.md included), or `"dynamic"` for generated content without digests. */
  readonly resources: readonly SkillFile[] | "dynamic";
}

/** The extension's per-skill limits (SEP-2640 "Limits"): hosts must support these, servers should stay within them. */
export const SKILL_LIMITS = { maxFiles: 512, maxTotalBytes: 16 * 1024 * 1024 } as const;

const DIGEST = /^sha256:[0-9a-f]{64}$/;

function isObject(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(uri: string | undefined, why: string): SkillError {
  return new SkillError(SkillFaultCode.InvalidEntry, `The skill entry ${uri ?? "(no uri)"} is invalid: ${why}; it cannot be loaded (ask the server's author to fix its skills/list answer).`, { ...(uri === undefined ? {} : { uri }) });
}

function parseFile(value: unknown, skill: string): SkillFile {
  if (!isObject(value) || typeof value.uri !== "string" || value.uri === "") throw invalid(skill, "a resources item has no uri");
  if (typeof value.digest !== "string" || !DIGEST.test(value.digest)) throw invalid(skill, `the digest of ${value.uri} is not sha256: and 64 lowercase hex digits`);
  if (typeof value.size !== "number" || !Number.isSafeInteger(value.size) || value.size < 0) throw invalid(skill, `the size of ${value.uri} is not a byte count`);
  return { uri: value.uri, digest: value.digest, size: value.size };
}

/** The root of a skill (its `SKILL.md` URI without `/SKILL.md`). */
export function skillRoot(uri: string): string {
  return uri.slice(0, -"/SKILL.md".length);
}

/** Checks and copies one entry; throws `SKILL_INVALID_ENTRY` saying what is wrong. */
export function parseSkillEntry(value: unknown): SkillEntry {
  if (!isObject(value) || typeof value.uri !== "string") throw invalid(undefined, "it is not an object with a string uri");
  const { uri, frontmatter, resources } = value;
  if (!uri.endsWith("/SKILL.md")) throw invalid(uri, "its uri does not end in /SKILL.md");
  if (!isObject(frontmatter) || typeof frontmatter.name !== "string" || typeof frontmatter.description !== "string") throw invalid(uri, "its frontmatter lacks a string name and description");
  if (skillRoot(uri).split("/").at(-1) !== frontmatter.name) throw invalid(uri, `the last segment of its path is not its name "${frontmatter.name}"`);
  if (resources === "dynamic") return { uri, frontmatter: frontmatter as SkillEntry["frontmatter"], resources };
  if (!Array.isArray(resources)) throw invalid(uri, 'its resources is neither an array nor "dynamic"');
  const files = resources.map((file) => parseFile(file, uri));
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.uri)) throw invalid(uri, `it lists ${file.uri} twice`);
    seen.add(file.uri);
    if (file.uri !== uri && !file.uri.startsWith(`${skillRoot(uri)}/`)) throw invalid(uri, `it lists ${file.uri}, which is outside the skill`);
  }
  if (!seen.has(uri)) throw invalid(uri, "its resources do not list its SKILL.md");
  return { uri, frontmatter: frontmatter as SkillEntry["frontmatter"], resources: files };
}

/** Throws `SKILL_LIMIT_EXCEEDED` when the entry lists more files or bytes than `limits` allow. */
export function checkLimits(entry: SkillEntry, limits: { readonly maxFiles: number; readonly maxTotalBytes: number }): void {
  if (entry.resources === "dynamic") return;
  const total = entry.resources.reduce((n, file) => n + file.size, 0);
  if (entry.resources.length > limits.maxFiles || total > limits.maxTotalBytes) {
    throw new SkillError(SkillFaultCode.LimitExceeded, `The skill ${entry.uri} has ${entry.resources.length} files and ${total} bytes, more than this host accepts (${limits.maxFiles} files, ${limits.maxTotalBytes} bytes); it was not loaded.`, {
      uri: entry.uri,
      detail: { files: entry.resources.length, totalBytes: total, limits },
    });
  }
}
