/**
 * `@proto/mcp-client/skills`: the host side of the MCP Skills extension
 * (`io.modelcontextprotocol/skills`, SEP-2640) over a connected `Client`: list and get skill
 * entries without reading any file, load a skill from a verified `SKILL.md` (size, SHA-256,
 * frontmatter), and read its supporting files on demand, each verified against the held entry.
 * A separate entry point, so the YAML parser it needs stays out of clients that do not use it.
 */
export { listSkills, getSkill, loadSkill, resolveSkillPath, SKILLS_EXTENSION } from "./skills/load";
export type { SkillListing, RejectedSkill, ListSkillsOptions, LoadSkillOptions, LoadedSkill } from "./skills/load";
export { parseSkillEntry, SKILL_LIMITS } from "./skills/entry";
export type { SkillEntry, SkillFile } from "./skills/entry";
export { SkillError, SkillFaultCode, isSkillError } from "./skills/errors";
