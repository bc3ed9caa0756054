/**
 * The tools that ask the client something in the middle of a call: sampling and the three
 * elicitation forms (MCP 2025-11-25 client/sampling and client/elicitation, SEP-1034 defaults,
 * SEP-1330 enums). Each answers with what the client returned, or says why it could not ask.
 */
import type { ElicitationSchema, Server } from "@proto/mcp-server";
import { reasonOf as reason, sampledText } from "./util";

/** Registers test_sampling, test_elicitation, test_elicitation_sep1034_defaults and test_elicitation_sep1330_enums. */
export function registerClientTools(server: Server, forms: { readonly sep1034: ElicitationSchema; readonly sep1330: ElicitationSchema }): void {
  server.tool(
    {
      name: "test_sampling",
      description: "Tests server-initiated sampling (LLM completion request)",
      inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
    },
    async ({ prompt }, ctx) => {
      try {
        const result = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 100 }, { signal: ctx.signal });
        return `LLM response: ${sampledText(result)}`;
      } catch (error) {
        return `Sampling not supported or error: ${reason(error)}`;
      }
    },
  );
  server.tool(
    {
      name: "test_elicitation",
      description: "Tests server-initiated elicitation (user input request)",
      inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
    },
    async ({ message }, ctx) => {
      try {
        const result = await ctx.elicit(
          { message, requestedSchema: { type: "object", properties: { response: { type: "string", description: "User's response" } }, required: ["response"] } },
          { signal: ctx.signal },
        );
        return `User response: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      } catch (error) {
        return `Elicitation not supported or error: ${reason(error)}`;
      }
    },
  );
  const formTool = (name: string, description: string, message: string, requestedSchema: ElicitationSchema): void => {
    server.tool({ name, description, inputSchema: { type: "object", properties: {} } }, async (_args, ctx) => {
      try {
        const result = await ctx.elicit({ message, requestedSchema }, { signal: ctx.signal });
        return `Elicitation completed: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;
      } catch (error) {
        return `Elicitation not supported or error: ${reason(error)}`;
      }
    });
  };
  formTool("test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034", "Please review and update the form fields with defaults", forms.sep1034);
  formTool("test_elicitation_sep1330_enums", "Tests elicitation with enum schema improvements per SEP-1330", "Please select options from the enum fields", forms.sep1330);
}
