/**
 * One server definition for the 2026-07-28 end-to-end tests (memory, HTTP, stdio child): a tool
 * that asks for a form, a URL consent, a sample and the roots in three rounds (two inputs in the
 * second), a tool that reports progress before asking, a prompt that asks, and a resource
 * whose list and content change on demand.
 */
import { createServer, type Server } from "@proto/mcp-server";

/** A fixed signing key, so a state minted by one instance opens on another (HTTP has no affinity). */
export const TEST_STATE_KEY = { id: "test", secret: "a test key that is at least 32 bytes long" };

/** Builds the scenario server; `now` is the clock of its `requestState` (tests mint expired state with an old one). */
export function createModernScenario(now?: () => number): Server {
  const server = createServer(
    { name: "modern-scenario", version: "1.0.0" },
    {
      stateless: { requestState: { keys: [TEST_STATE_KEY], ...(now === undefined ? {} : { now }) } },
      capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } },
    },
  );
  server.tool({ name: "interview", inputSchema: { type: "object", properties: { topic: { type: "string" } } } }, async ({ topic }, ctx) => {
    const form = await ctx.elicit({ message: `Name for ${String(topic)}?`, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    const [consent, roots] = await Promise.all([ctx.elicitUrl({ message: "Consent", url: "https://example.com/consent" }), ctx.listRoots()]);
    const sampled = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Summarise" } }], maxTokens: 10 });
    const text = (sampled.content as { text?: string }).text ?? "";
    return `${String(form.content?.name)} ${consent.action} ${roots.map((r) => r.uri).join(",")} ${text}`;
  });
  server.tool({ name: "slow-ask", inputSchema: { type: "object" } }, async (_a, ctx) => {
    await ctx.progress(1, 2, "thinking");
    const r = await ctx.elicit({ message: "Go on?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
    return `answered ${r.action}`;
  });
  server.prompt({ name: "ask-prompt" }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Context?", requestedSchema: { type: "object", properties: { context: { type: "string" } } } });
    return `context: ${String(r.content?.context)}`;
  });
  const doc = server.resource({ uri: "file:///doc", name: "doc" }, () => ({ contents: [{ uri: "file:///doc", text: "doc" }] }));
  server.tool({ name: "touch", inputSchema: { type: "object" } }, () => {
    doc.updated();
    if (!server.removeTool("extra")) server.tool({ name: "extra", inputSchema: { type: "object" } }, () => "extra");
    return "touched";
  });
  return server;
}

/** The answers of the interview's rounds, by round, keyed as the server asks them. */
export const INTERVIEW_ANSWERS: readonly Record<string, unknown>[] = [
  { "elicit-0": { action: "accept", content: { name: "Ada" } } },
  { "elicit-1": { action: "accept" }, "roots-2": { roots: [{ uri: "file:///work" }] } },
  { "sample-3": { role: "assistant", content: { type: "text", text: "done" }, model: "m" } },
];

/** The client capabilities the interview needs. */
export const ALL_CAPABILITIES = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
