/**
 * Verification on read (SEP-2640 "Integrity and Verification"): a file read from a skill is
 * used only when its byte length equals the entry's `size` and its SHA-256 equals the entry's
 * `digest`; a `SKILL.md` is used only when its YAML frontmatter equals the entry's
 * `frontmatter` field by field. WebCrypto only, so it runs wherever the client runs.
 */
import type { JsonObject, ReadResourceResult } from "@proto/mcp-protocol";
import { parse } from "yaml";
import type { SkillFile } from "./entry";
import { SkillError, SkillFaultCode } from "./errors";

/** The raw bytes of the content `uri` in a `resources/read` result (text as UTF-8, blob base64-decoded). */
export function contentBytes(result: ReadResourceResult, uri: string): Uint8Array {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (item !== undefined && "text" in item && typeof item.text === "string") return new TextEncoder().encode(item.text);
  if (item !== undefined && "blob" in item && typeof item.blob === "string") return Uint8Array.from(atob(item.blob), (ch) => ch.charCodeAt(0));
  throw new SkillError(SkillFaultCode.DigestMismatch, `resources/read of ${uri} returned no text or blob content for it; nothing was used.`, { uri });
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Throws `SKILL_SIZE_MISMATCH` or `SKILL_DIGEST_MISMATCH` unless `bytes` are what `file` describes. */
export async function verifyFile(bytes: Uint8Array, file: SkillFile): Promise<void> {
  if (bytes.byteLength !== file.size) {
    throw new SkillError(SkillFaultCode.SizeMismatch, `${file.uri} is ${bytes.byteLength} bytes, its skill entry says ${file.size}: the content was not used (refresh the entry with skills/get if the skill changed).`, {
      uri: file.uri,
      detail: { expected: file.size, actual: bytes.byteLength },
    });
  }
  const digest = await sha256(bytes);
  if (digest !== file.digest) {
    throw new SkillError(SkillFaultCode.DigestMismatch, `The SHA-256 of ${file.uri} is not the one its skill entry lists: the content was not used (refresh the entry with skills/get if the skill changed).`, {
      uri: file.uri,
      detail: { expected: file.digest, actual: digest },
    });
  }
}

/** The YAML frontmatter of a `SKILL.md` (between the opening `---` line and the next `---` line). */
export function readFrontmatter(text: string, uri: string): unknown {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text.replace(/^\uFEFF/, ""));
  const fail = (why: string, cause?: unknown): SkillError =>
    new SkillError(SkillFaultCode.FrontmatterMismatch, `${uri} ${why}; the skill was not loaded.`, { uri, ...(cause === undefined ? {} : { cause }) });
  if (match?.[1] === undefined) throw fail("does not begin with YAML frontmatter (a --- line, the fields, a --- line)");
  try {
    return parse(match[1], { schema: "core", uniqueKeys: true, maxAliasCount: 0 }) as unknown;
  } catch (error) {
    throw fail("has frontmatter that is not valid YAML", error);
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** Throws `SKILL_FRONTMATTER_MISMATCH` naming the fields that differ, unless the parsed frontmatter equals the entry's. */
export function compareFrontmatter(parsed: unknown, expected: JsonObject, uri: string): void {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new SkillError(SkillFaultCode.FrontmatterMismatch, `The frontmatter of ${uri} is not a YAML mapping; the skill was not loaded.`, { uri });
  }
  const actual = parsed as { readonly [key: string]: unknown };
  const fields = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].filter((key) => !sameJson(actual[key], expected[key]));
  if (fields.length > 0) {
    throw new SkillError(SkillFaultCode.FrontmatterMismatch, `The frontmatter of ${uri} differs from its skill entry in ${fields.join(", ")}; the skill was not loaded.`, {
      uri,
      detail: { fields },
    });
  }
}
