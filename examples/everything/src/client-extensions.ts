/**
 * The conformance client's runners for the client scenarios outside both requirement sets that
 * exercise client features rather than the wire: JSON Schema 2020-12 preservation (SEP-1613,
 * SEP-2106) and the Skills extension host (SEP-2640: lazy retrieval, verification on read).
 */
import type { Client, ClientOptions } from "@proto/mcp-client";
import { isSkillError, listSkills, loadSkill, SkillFaultCode, SKILLS_EXTENSION } from "@proto/mcp-client/skills";
import type { ScenarioRunner, Trace } from "./client-scenarios";

/** Opens a client with `options`, runs `body`, closes (the scenarios' `withClient`). */
export type WithClient = (serverUrl: string, options: Omit<ClientOptions, "info">, body: (client: Client) => Promise<void>) => Promise<void>;

/** `json-schema-2020-12-preservation`: echoes the focal tool's inputSchema, as listed, to the echo tool. */
export function schemaPreservation(withClient: WithClient): ScenarioRunner {
  return (serverUrl, _context, trace) =>
    withClient(serverUrl, {}, async (client) => {
      const tools = await client.listAllTools();
      const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
      if (focal === undefined) throw new Error(`the server lists no json_schema_2020_12_tool (it has ${tools.map((t) => t.name).join(", ")})`);
      trace(`inputSchema keywords: ${Object.keys(focal.inputSchema).join(", ")}`);
      await client.callToolOrThrow("json_schema_echo", { schema: focal.inputSchema });
    });
}

const SKILLS: Omit<ClientOptions, "info"> = { extensions: { [SKILLS_EXTENSION]: {} } };

async function listed(client: Client, trace: Trace): Promise<Awaited<ReturnType<typeof listSkills>>> {
  const listing = await listSkills(client);
  trace(`skills: ${listing.skills.map((s) => s.uri).join(", ")}${listing.rejected.length > 0 ? `; rejected: ${listing.rejected.map((r) => r.error.message).join("; ")}` : ""}`);
  return listing;
}

/** `sep-2640-client-no-prefetch`: lists the skills and loads none, so no skill file is read. */
export function skillsNoPrefetch(withClient: WithClient): ScenarioRunner {
  return (serverUrl, _context, trace) => withClient(serverUrl, SKILLS, async (client) => void (await listed(client, trace)));
}

const VERIFICATION: ReadonlySet<string> = new Set([SkillFaultCode.SizeMismatch, SkillFaultCode.DigestMismatch, SkillFaultCode.FrontmatterMismatch]);

/**
 * `sep-2640-client-verify-{digest,size,frontmatter}`: loads each listed skill and then reads its
 * supporting files, as a host acting on it would. A skill that fails verification is refused
 * (traced, not fatal: refusing it is the host's correct answer) and none of its files is read.
 */
export function skillsVerify(withClient: WithClient): ScenarioRunner {
  return (serverUrl, _context, trace) =>
    withClient(serverUrl, SKILLS, async (client) => {
      for (const entry of (await listed(client, trace)).skills) {
        try {
          const skill = await loadSkill(client, entry);
          trace(`loaded ${entry.uri} (${skill.content.length} characters)`);
          const files = entry.resources === "dynamic" ? [] : entry.resources.filter((file) => file.uri !== entry.uri);
          for (const file of files) trace(`read ${file.uri}: ${(await skill.readFile(file.uri)).byteLength} bytes`);
        } catch (error) {
          if (!isSkillError(error) || !VERIFICATION.has(error.code)) throw error;
          trace(`refused ${entry.uri}: ${error.code}: ${error.message}`);
        }
      }
    });
}
