/**
 * The fixtures of the 2026-07-28 conformance scenarios (server-stateless, input-required-result-*):
 * multi-round input written as ordinary `ctx.elicit` / `ctx.sample` / `ctx.listRoots` calls
 * (the keys the suite expects come from `inputKey`), a tool that needs an undeclared
 * capability, logging and streaming probes, and hooks that change the tool and prompt lists.
 */
import type { RequestContext, Server } from "@proto/mcp-server";
import { sampledText } from "./util";

const NO_ARGS = { type: "object", properties: {} } as const;

function nameForm(message: string, field: string) {
  return { message, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } } as const;
}

function listRootsText(roots: readonly { readonly uri: string }[]): string {
  return roots.length === 0 ? "no roots" : roots.map((r) => r.uri).join(", ");
}

function askCapital(ctx: RequestContext, key: string, text: string, maxTokens: number) {
  return ctx.sample({ messages: [{ role: "user", content: { type: "text", text } }], maxTokens }, { inputKey: key });
}

function registerRounds(server: Server): void {
  server.tool({ name: "test_input_required_result_elicitation", description: "Asks the user's name with an input_required result", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const r = await ctx.elicit(nameForm("What is your name?", "name"), { inputKey: "user_name" });
    return `Hello, ${r.action === "accept" ? String(r.content?.name) : r.action}!`;
  });
  server.tool({ name: "test_input_required_result_sampling", description: "Asks the client's model a question", inputSchema: NO_ARGS }, async (_a, ctx) => {
    return `The model said: ${sampledText(await askCapital(ctx, "capital_question", "What is the capital of France?", 100))}`;
  });
  server.tool({ name: "test_input_required_result_list_roots", description: "Asks the client's roots", inputSchema: NO_ARGS }, async (_a, ctx) => {
    return `Roots: ${listRootsText(await ctx.listRoots({ inputKey: "client_roots" }))}`;
  });
  server.tool({ name: "test_input_required_result_request_state", description: "Confirms through signed requestState", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const r = await ctx.elicit(
      { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
      { inputKey: "confirm" },
    );
    return `state-ok: confirmation ${r.action}`;
  });
  server.tool({ name: "test_input_required_result_multiple_inputs", description: "Asks three inputs in one round", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const [user, greeting, roots] = await Promise.all([
      ctx.elicit(nameForm("What is your name?", "name"), { inputKey: "user_name" }),
      askCapital(ctx, "greeting", "Generate a greeting", 50),
      ctx.listRoots({ inputKey: "client_roots" }),
    ]);
    return `name=${String(user.content?.name ?? user.action)}; greeting=${sampledText(greeting)}; roots=${listRootsText(roots)}`;
  });
  server.tool({ name: "test_input_required_result_multi_round", description: "Asks two inputs in two rounds", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const name = await ctx.elicit(nameForm("Step 1: What is your name?", "name"), { inputKey: "step1" });
    const color = await ctx.elicit(nameForm("Step 2: What is your favorite color?", "color"), { inputKey: "step2" });
    return `${String(name.content?.name ?? name.action)} likes ${String(color.content?.color ?? color.action)}`;
  });
  server.tool({ name: "test_input_required_result_tampered_state", description: "Refuses a tampered requestState", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const r = await ctx.elicit(nameForm("What is your name?", "name"), { inputKey: "user_name" });
    return `Hello, ${String(r.content?.name ?? r.action)}!`;
  });
  server.tool({ name: "test_input_required_result_capabilities", description: "Asks only what the request's capabilities allow", inputSchema: NO_ARGS }, async (_a, ctx) => {
    const caps = ctx.clientCapabilities;
    const asks: Promise<string>[] = [];
    if (caps.sampling !== undefined) asks.push(askCapital(ctx, "capital_question", "What is the capital of France?", 100).then(sampledText));
    if (caps.elicitation !== undefined) asks.push(ctx.elicit(nameForm("What is your name?", "name"), { inputKey: "user_name" }).then((r) => r.action));
    if (caps.roots !== undefined) asks.push(ctx.listRoots({ inputKey: "client_roots" }).then(listRootsText));
    return asks.length === 0 ? "nothing to ask: the request declared no client capability" : (await Promise.all(asks)).join("; ");
  });
  server.prompt({ name: "test_input_required_result_prompt", description: "A prompt that asks the user for context first" }, async (_a, ctx) => {
    const r = await ctx.elicit(nameForm("What context should the prompt use?", "context"), { inputKey: "user_context" });
    return `Use this context: ${String(r.content?.context ?? r.action)}`;
  });
}

/** Registers the 2026-07-28 fixtures. */
export function registerStatelessTools(server: Server): void {
  registerRounds(server);
  server.tool({ name: "test_missing_capability", description: "Needs sampling; without it the call is -32021", inputSchema: NO_ARGS }, async (_a, ctx) => {
    return `The model said: ${sampledText(await askCapital(ctx, "question", "Say hello", 20))}`;
  });
  server.tool({ name: "test_streaming_elicitation", description: "Reports progress, then asks for input", inputSchema: NO_ARGS }, async (_a, ctx) => {
    await ctx.progress(1, 2, "about to ask");
    const r = await ctx.elicit(nameForm("What is your name?", "name"), { inputKey: "user_name" });
    return `Hello, ${String(r.content?.name ?? r.action)}!`;
  });
  server.tool({ name: "test_logging_tool", description: "Logs at every level (sent only when the request set a logLevel)", inputSchema: NO_ARGS }, async (_a, ctx) => {
    for (const level of ["debug", "info", "warning", "error"] as const) await ctx.log(level, `a ${level} message`);
    return "logged";
  });
  let toggles = 0;
  server.tool({ name: "test_trigger_tool_change", description: "Adds or removes a tool (tools/list_changed)", inputSchema: NO_ARGS }, () => {
    toggles += 1;
    if (!server.removeTool("test_dynamic_tool")) server.tool({ name: "test_dynamic_tool", description: "Appears and disappears", inputSchema: NO_ARGS }, () => "dynamic");
    return `tool list changed (${toggles})`;
  });
  server.tool({ name: "test_trigger_prompt_change", description: "Adds or removes a prompt (prompts/list_changed)", inputSchema: NO_ARGS }, () => {
    if (!server.removePrompt("test_dynamic_prompt")) server.prompt({ name: "test_dynamic_prompt", description: "Appears and disappears" }, () => "dynamic");
    return "prompt list changed";
  });
}
