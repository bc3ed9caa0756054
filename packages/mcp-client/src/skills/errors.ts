/**
 * Faults of the skills helpers (`@proto/mcp-client/skills`, the MCP Skills extension
 * `io.modelcontextprotocol/skills`, SEP-2640). A verification fault means the content is not
 * what the server's skill entry describes: it was not used, and nothing of it reached the caller.
 */

/** Stable codes of skills faults. */
export const SkillFaultCode = {
  /** The server did not declare `io.modelcontextprotocol/skills` in its capabilities. */
  ExtensionMissing: "SKILLS_EXTENSION_MISSING",
  /** A skill entry is malformed (no `resources`, a bad digest, a URI not ending in `/SKILL.md`, ...); it is never loaded. */
  InvalidEntry: "SKILL_INVALID_ENTRY",
  /** A file's byte length differs from its entry's `size` (a verification failure). */
  SizeMismatch: "SKILL_SIZE_MISMATCH",
  /** A file's SHA-256 differs from its entry's `digest` (a verification failure). */
  DigestMismatch: "SKILL_DIGEST_MISMATCH",
  /** The `SKILL.md` frontmatter differs from the entry's `frontmatter`, or cannot be parsed (a verification failure). */
  FrontmatterMismatch: "SKILL_FRONTMATTER_MISMATCH",
  /** A read of a file the held entry does not list (a verification failure), or a path outside the skill. */
  UnlistedFile: "SKILL_UNLISTED_FILE",
  /** The entry's `resources` is `"dynamic"` (no integrity) and `allowDynamic` was not set. */
  DynamicRefused: "SKILL_DYNAMIC_REFUSED",
  /** The entry exceeds the extension's limits (512 files, 16 MiB in total) or the caller's. */
  LimitExceeded: "SKILL_LIMIT_EXCEEDED",
} as const;

/** One of the skills fault codes. */
export type SkillFaultCode = (typeof SkillFaultCode)[keyof typeof SkillFaultCode];

/** A skills fault: switch on `code`; `uri` names the skill file concerned. */
export class SkillError extends Error {
  override readonly name: string = "SkillError";
  /** A stable code from `SkillFaultCode`. */
  readonly code: SkillFaultCode;
  /** The skill file (or `SKILL.md`) the fault is about. */
  readonly uri: string | undefined;
  /** Structured detail (expected and actual values), when there is any. */
  readonly detail: unknown;

  /** Creates a skills fault; `message` says what happened and what to do. */
  constructor(code: SkillFaultCode, message: string, options?: { uri?: string; detail?: unknown; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.uri = options?.uri;
    this.detail = options?.detail;
  }
}

/** True when `error` is a `SkillError` (also across bundled copies of the package). */
export function isSkillError(error: unknown): error is SkillError {
  return error instanceof SkillError || (error instanceof Error && error.name === "SkillError" && typeof (error as { code?: unknown }).code === "string");
}
