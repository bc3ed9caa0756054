import { describe, expect, it } from "vitest";
import * as api from "./skills";

describe("@proto/mcp-client/skills public surface", () => {
  it("exports exactly these runtime values", () => {
    expect(Object.keys(api).sort()).toEqual([
      "SKILLS_EXTENSION",
      "SKILL_LIMITS",
      "SkillError",
      "SkillFaultCode",
      "getSkill",
      "isSkillError",
      "listSkills",
      "loadSkill",
      "parseSkillEntry",
      "resolveSkillPath",
    ]);
  });
});
