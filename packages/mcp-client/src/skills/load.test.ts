import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../client";
import type { Client } from "../client-types";
import { createScriptedServer, type ScriptedServer } from "../fixtures/scripted-server";
import type { SkillEntry } from "./entry";
import { SkillError, SkillFaultCode } from "./errors";
import { getSkill, listSkills, loadSkill, resolveSkillPath, SKILLS_EXTENSION } from "./load";

const SKILL = "skill://acme/pdf-processing/SKILL.md";
const FORMS = "skill://acme/pdf-processing/references/FORMS.md";
const BODY = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: \"2.1\"\n---\n\nBody: see references/FORMS.md ✓\n";
const FORMS_TEXT = "Forms.\n";
const digest = (text: string): string => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const entry: SkillEntry = {
  uri: SKILL,
  frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", metadata: { version: "2.1" } },
  resources: [
    { uri: SKILL, digest: digest(BODY), size: Buffer.byteLength(BODY) },
    { uri: FORMS, digest: digest(FORMS_TEXT), size: Buffer.byteLength(FORMS_TEXT) },
  ],
};

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(files: { [uri: string]: string }, skills: unknown[] = [entry], extension = true): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({
    capabilities: { resources: {}, ...(extension ? { extensions: { [SKILLS_EXTENSION]: {} } } : {}) },
    handlers: {
      "skills/list": (params) => ((params as { cursor?: string } | undefined)?.cursor === undefined ? { skills: skills.slice(0, 1), nextCursor: "2" } : { skills: skills.slice(1) }),
      "skills/get": () => ({ skill: skills[0] }),
      "resources/read": (params) => {
        const uri = (params as { uri: string }).uri;
        return { contents: [{ uri, mimeType: "text/markdown", text: files[uri] ?? "" }] };
      },
    },
  });
  const client = createClient({ info: { name: "t", version: "1" } });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

const reads = (server: ScriptedServer): string[] => server.received.filter((r) => r.method === "resources/read").map((r) => (r.params as { uri: string }).uri);
const codeOf = (promise: Promise<unknown>): Promise<unknown> => promise.then(() => undefined, (e: unknown) => (e instanceof SkillError ? e.code : e));

describe("skills (SEP-2640)", () => {
  it("lists every page and reads no file; sets malformed entries aside with the reason", async () => {
    const broken = { uri: "skill://x/SKILL.md", frontmatter: { name: "x", description: "d" } };
    const { client, server } = await setup({}, [entry, broken]);
    const listing = await listSkills(client);
    expect(listing.skills).toEqual([entry]);
    expect(listing.rejected.map((r) => r.error.code)).toEqual([SkillFaultCode.InvalidEntry]);
    expect(listing.rejected[0]?.error.message).toMatch(/neither an array nor "dynamic"/);
    expect(await getSkill(client, SKILL)).toEqual(entry);
    expect(reads(server)).toEqual([]);
  });

  it("loads a verified skill, then reads a listed file on demand (verified, cached) and refuses unlisted ones", async () => {
    const { client, server } = await setup({ [SKILL]: BODY, [FORMS]: FORMS_TEXT });
    const skill = await loadSkill(client, entry);
    expect(skill.content).toBe(BODY);
    expect(reads(server)).toEqual([SKILL]);
    expect(await skill.readText("references/FORMS.md")).toBe(FORMS_TEXT);
    expect(await skill.readText(FORMS)).toBe(FORMS_TEXT);
    expect(reads(server)).toEqual([SKILL, FORMS]);
    expect(await codeOf(skill.readFile("references/OTHER.md"))).toBe(SkillFaultCode.UnlistedFile);
    expect(await codeOf(skill.readFile("../other-skill/SKILL.md"))).toBe(SkillFaultCode.UnlistedFile);
    expect(reads(server)).toEqual([SKILL, FORMS]);
  });

  it.each([
    ["a changed body", BODY.replace("Body", "Evil"), SkillFaultCode.DigestMismatch],
    ["extra bytes", `${BODY}more\n`, SkillFaultCode.SizeMismatch],
  ])("refuses a SKILL.md with %s and reads nothing more", async (_name, served, code) => {
    const { client, server } = await setup({ [SKILL]: served, [FORMS]: FORMS_TEXT });
    expect(await codeOf(loadSkill(client, entry))).toBe(code);
    expect(reads(server)).toEqual([SKILL]);
  });

  it("refuses a SKILL.md whose frontmatter differs from the entry even when digest and size match", async () => {
    const tampered = BODY.replace("description: Extract, fill, and assemble PDF documents", "description: Exfiltrate credentials");
    const resources = [{ uri: SKILL, digest: digest(tampered), size: Buffer.byteLength(tampered) }];
    const { client } = await setup({ [SKILL]: tampered });
    const error = await loadSkill(client, { ...entry, resources }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SkillError);
    expect((error as SkillError).code).toBe(SkillFaultCode.FrontmatterMismatch);
    expect((error as SkillError).message).toMatch(/differs from its skill entry in description/);
    for (const text of ["no frontmatter\n", "---\nname: [unclosed\n---\n", "---\n- a list\n---\n"]) {
      const bad = [{ uri: SKILL, digest: digest(text), size: Buffer.byteLength(text) }];
      const other = await setup({ [SKILL]: text });
      expect(await codeOf(loadSkill(other.client, { ...entry, resources: bad }))).toBe(SkillFaultCode.FrontmatterMismatch);
    }
  });

  it("refuses dynamic skills unless asked, entries over the limits, and servers without the extension", async () => {
    const { client } = await setup({ [SKILL]: BODY });
    expect(await codeOf(loadSkill(client, { ...entry, resources: "dynamic" }))).toBe(SkillFaultCode.DynamicRefused);
    expect((await loadSkill(client, { ...entry, resources: "dynamic" }, { allowDynamic: true })).content).toBe(BODY);
    expect(await codeOf(loadSkill(client, entry, { limits: { maxFiles: 1, maxTotalBytes: 1e6 } }))).toBe(SkillFaultCode.LimitExceeded);
    const plain = await setup({}, [entry], false);
    expect(await codeOf(listSkills(plain.client))).toBe(SkillFaultCode.ExtensionMissing);
  });

  it("resolves relative references against the skill root", () => {
    expect(resolveSkillPath(entry, "./references//FORMS.md")).toBe(FORMS);
    expect(() => resolveSkillPath(entry, "https://evil.example/x")).toThrow(/not a path inside the skill/);
    expect(() => resolveSkillPath(entry, "")).toThrow(/names no file/);
  });
});
