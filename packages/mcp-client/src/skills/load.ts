/**
 * The host side of the Skills extension (SEP-2640): `listSkills` and `getSkill` fetch entries
 * and nothing else (lazy retrieval: no file is read on connection or listing), `loadSkill`
 * reads and verifies `SKILL.md` (size, digest, frontmatter), and the loaded skill reads its
 * supporting files on demand, only those its held entry lists, each verified before use.
 */
import type { JsonObject } from "@proto/mcp-protocol";
import type { Client } from "../client-types";
import type { RequestOptions } from "../request-options";
import { checkLimits, parseSkillEntry, SKILL_LIMITS, skillRoot, type SkillEntry, type SkillFile } from "./entry";
import { SkillError, SkillFaultCode } from "./errors";
import { compareFrontmatter, contentBytes, readFrontmatter, verifyFile } from "./verify";

/** The extension identifier servers declare in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** An entry `listSkills` could not accept, and why (it must not be loaded). */
export interface RejectedSkill {
  readonly entry: unknown;
  readonly error: SkillError;
}

/** What `listSkills` found: the valid entries, and the malformed ones set aside. */
export interface SkillListing {
  readonly skills: readonly SkillEntry[];
  readonly rejected: readonly RejectedSkill[];
}

/** Options of `listSkills`. */
export interface ListSkillsOptions extends RequestOptions {
  /** Stop after this many pages (a server that never stops paging). Default 100. */
  readonly maxPages?: number;
}

type RawRequest = (method: string, params: JsonObject | undefined, options?: RequestOptions) => Promise<unknown>;

function assertExtension(client: Client): void {
  const declared = client.server?.capabilities.extensions?.[SKILLS_EXTENSION];
  if (client.server !== undefined && declared === undefined) {
    throw new SkillError(SkillFaultCode.ExtensionMissing, `The server ${client.server.info.name} does not declare the ${SKILLS_EXTENSION} extension; it serves no skills/list or skills/get.`);
  }
}

function rawRequest(client: Client): RawRequest {
  // skills/* are extension methods, outside the typed map of core MCP methods.
  return client.request as unknown as RawRequest;
}

/** Pages through `skills/list` (SEP-2640 "Listing Skills"); reads no skill file. Connect the client first. */
export async function listSkills(client: Client, options: ListSkillsOptions = {}): Promise<SkillListing> {
  assertExtension(client);
  const { maxPages = 100, ...requestOptions } = options;
  const skills: SkillEntry[] = [];
  const rejected: RejectedSkill[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = (await rawRequest(client)("skills/list", cursor === undefined ? undefined : { cursor }, requestOptions)) as { skills?: unknown; nextCursor?: unknown };
    for (const entry of Array.isArray(result.skills) ? result.skills : []) {
      try {
        skills.push(parseSkillEntry(entry));
      } catch (error) {
        rejected.push({ entry, error: error as SkillError });
      }
    }
    if (typeof result.nextCursor !== "string" || result.nextCursor === "") return { skills, rejected };
    cursor = result.nextCursor;
  }
  return { skills, rejected };
}

/** `skills/get`: the current entry of one skill by the URI of its `SKILL.md` (listed or not). */
export async function getSkill(client: Client, uri: string, options?: RequestOptions): Promise<SkillEntry> {
  assertExtension(client);
  const result = (await rawRequest(client)("skills/get", { uri }, options)) as { skill?: unknown };
  return parseSkillEntry(result.skill);
}

/** Options of `loadSkill`. */
export interface LoadSkillOptions extends RequestOptions {
  /** Load skills whose `resources` is `"dynamic"` (no digests: nothing can be verified but the frontmatter). Default false. */
  readonly allowDynamic?: boolean;
  /** Per-skill limits. Default `SKILL_LIMITS` (512 files, 16 MiB), the least every host must accept. */
  readonly limits?: { readonly maxFiles: number; readonly maxTotalBytes: number };
}

/** A skill loaded from a verified `SKILL.md`, holding the entry it was loaded from. */
export interface LoadedSkill {
  /** The entry the skill was loaded from (reads resolve against it only). */
  readonly entry: SkillEntry;
  /** The verified `SKILL.md` text (frontmatter and body). */
  readonly content: string;
  /**
   * Reads a supporting file by its path relative to the skill root (`references/FORMS.md`) or by
   * its URI, verified against the held entry; cached once verified. A file the entry does not
   * list is `SKILL_UNLISTED_FILE`; a mismatch is `SKILL_SIZE_MISMATCH` / `SKILL_DIGEST_MISMATCH`.
   */
  readFile(path: string, options?: RequestOptions): Promise<Uint8Array>;
  /** `readFile` decoded as UTF-8. */
  readText(path: string, options?: RequestOptions): Promise<string>;
}

function listed(entry: SkillEntry, uri: string): SkillFile | undefined {
  return entry.resources === "dynamic" ? undefined : entry.resources.find((file) => file.uri === uri);
}

/** The URI a relative reference names inside the skill (SEP-2640 "Relative References"); throws for paths leaving it. */
export function resolveSkillPath(entry: SkillEntry, path: string): string {
  const root = skillRoot(entry.uri);
  if (path.startsWith(`${root}/`)) return path;
  const segments: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." || /^[a-z][a-z0-9+.-]*:/i.test(part)) throw new SkillError(SkillFaultCode.UnlistedFile, `${path} is not a path inside the skill ${entry.uri}.`, { uri: entry.uri });
    segments.push(part);
  }
  if (segments.length === 0) throw new SkillError(SkillFaultCode.UnlistedFile, `"${path}" names no file of the skill ${entry.uri}.`, { uri: entry.uri });
  return `${root}/${segments.join("/")}`;
}

async function readVerified(client: Client, entry: SkillEntry, uri: string, options: RequestOptions | undefined): Promise<Uint8Array> {
  const file = listed(entry, uri);
  if (file === undefined && entry.resources !== "dynamic") {
    throw new SkillError(SkillFaultCode.UnlistedFile, `${uri} is not listed in the entry of ${entry.uri}; an unlisted file is a change to the skill and was not read (refresh the entry with skills/get).`, { uri });
  }
  const bytes = contentBytes(await client.readResource(uri, options), uri);
  if (file !== undefined) await verifyFile(bytes, file);
  return bytes;
}

/**
 * Loads a skill from its entry: reads `SKILL.md`, verifies its size and digest, and compares
 * its frontmatter field by field with the entry's. Nothing is returned on a mismatch
 * (`SkillError`), so unverified content never reaches the model. Supporting files are read
 * later, on demand, with `readFile`.
 */
export async function loadSkill(client: Client, entry: SkillEntry, options: LoadSkillOptions = {}): Promise<LoadedSkill> {
  const { allowDynamic = false, limits = SKILL_LIMITS, ...requestOptions } = options;
  const held = parseSkillEntry(entry);
  if (held.resources === "dynamic" && !allowDynamic) {
    throw new SkillError(SkillFaultCode.DynamicRefused, `The skill ${held.uri} is dynamic (no digests to verify its content against); pass allowDynamic: true to load it anyway.`, { uri: held.uri });
  }
  checkLimits(held, limits);
  const content = new TextDecoder("utf-8", { fatal: false }).decode(await readVerified(client, held, held.uri, requestOptions));
  compareFrontmatter(readFrontmatter(content, held.uri), held.frontmatter, held.uri);
  const cache = new Map<string, Uint8Array>();
  const readFile = async (path: string, readOptions?: RequestOptions): Promise<Uint8Array> => {
    const uri = resolveSkillPath(held, path);
    const cached = cache.get(uri);
    if (cached !== undefined) return cached.slice();
    const bytes = await readVerified(client, held, uri, readOptions);
    if (held.resources !== "dynamic") cache.set(uri, bytes);
    return bytes.slice();
  };
  return {
    entry: held,
    content,
    readFile,
    readText: async (path, readOptions) => new TextDecoder().decode(await readFile(path, readOptions)),
  };
}
