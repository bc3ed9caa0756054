import { describe, expect, it } from "vitest";
import { parseSkillEntry } from "./entry";

const digest = `sha256:${"a".repeat(64)}`;
const good = { uri: "skill://a/b/SKILL.md", frontmatter: { name: "b", description: "d", license: "MIT" }, resources: [{ uri: "skill://a/b/SKILL.md", digest, size: 3 }] };

describe("parseSkillEntry", () => {
  it("accepts a well-formed entry and keeps every frontmatter field", () => {
    expect(parseSkillEntry(good)).toEqual(good);
    expect(parseSkillEntry({ ...good, resources: "dynamic" }).resources).toBe("dynamic");
  });

  it.each([
    ["no uri", { ...good, uri: 3 }, /string uri/],
    ["a uri not ending in /SKILL.md", { ...good, uri: "skill://a/b/README.md" }, /does not end in \/SKILL.md/],
    ["a name that is not the last path segment", { ...good, frontmatter: { name: "c", description: "d" } }, /last segment/],
    ["no description", { ...good, frontmatter: { name: "b" } }, /name and description/],
    ["no resources", { ...good, resources: undefined }, /neither an array nor "dynamic"/],
    ["an upper-case digest", { ...good, resources: [{ ...good.resources[0], digest: digest.toUpperCase() }] }, /digest/],
    ["a negative size", { ...good, resources: [{ ...good.resources[0], size: -1 }] }, /size/],
    ["a file outside the skill", { ...good, resources: [...good.resources, { uri: "skill://a/other/x", digest, size: 1 }] }, /outside the skill/],
    ["a file listed twice", { ...good, resources: [...good.resources, ...good.resources] }, /twice/],
    ["resources without SKILL.md", { ...good, resources: [{ uri: "skill://a/b/x.md", digest, size: 1 }] }, /do not list its SKILL.md/],
  ])("refuses an entry with %s", (_name, value, message) => {
    expect(() => parseSkillEntry(value)).toThrow(message);
  });
});
