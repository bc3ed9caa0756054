/**
 * Test fixture (not exported): a stdio child for gateway tests, `child-stdio.ts NAME [MODE]`.
 * Tools: `echo`, `crash` (exits 3 mid-call after a stderr line), `silent` (never answers;
 * counts cancellations), `slow` (progress every 100 ms for `ms`), `garbage` (writes a non-JSON
 * line and a 10 MB line to stdout, then never answers), `ask` (samples the client), `grow`
 * (registers another tool), `stats`. MODE `hang` never answers `initialize`.
 */
import { createServer } from "@proto/mcp-server";
import { serveStdio } from "@proto/transport-stdio/node";

const name = process.argv[2] ?? "child";
const mode = process.argv[3] ?? "normal";

if (mode === "hang") {
  process.stdin.resume(); // reads and never answers
} else {
  const server = createServer({ name, version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  let cancelled = 0;
  let grown = 0;
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => `${name}:${text ?? ""}`);
  server.tool({ name: "crash", inputSchema: { type: "object" } }, () => {
    process.stderr.write(`${name} is dying on purpose\n`);
    setTimeout(() => process.exit(3), 10);
    return new Promise(() => {});
  });
  server.tool({ name: "silent", inputSchema: { type: "object" } }, (_args, ctx) => {
    ctx.signal.addEventListener("abort", () => cancelled++);
    return new Promise(() => {});
  });
  server.tool({ name: "slow", inputSchema: { type: "object", properties: { ms: { type: "number" } } } }, async ({ ms }, ctx) => {
    const steps = Math.ceil((ms ?? 500) / 100);
    for (let i = 1; i <= steps; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await ctx.progress(i, steps);
    }
    return `${name} slept`;
  });
  server.tool({ name: "garbage", inputSchema: { type: "object" } }, () => {
    process.stdout.write("this is not JSON\n");
    process.stdout.write(`${"x".repeat(10 * 1024 * 1024)}\n`);
    return new Promise(() => {});
  });
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: `question from ${name}` } }], maxTokens: 10 });
    const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    return content?.type === "text" ? `${name} got: ${content.text}` : "no text";
  });
  server.tool({ name: "grow", inputSchema: { type: "object" } }, () => {
    grown++;
    server.tool({ name: `grown_${grown}`, inputSchema: { type: "object" } }, () => "grown");
    return "grew";
  });
  server.tool({ name: "stats", inputSchema: { type: "object" } }, (_args, ctx) => ({ cancelled, pid: process.pid, progressToken: ctx.meta.progressToken ?? null }));
  await server.ready(); // compile every schema now: timed calls in tests must not pay for it
  await serveStdio(server, { banner: false });
}
