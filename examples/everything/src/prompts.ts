/**
 * The prompts of the everything server (MCP 2025-11-25 server/prompts): plain, with
 * arguments (and completions for them), with an embedded resource, with an image.
 */
import type { Server } from "@proto/mcp-server";
import { PNG_PIXEL_BASE64 } from "./fixtures";

/** Registers the four prompts. */
export function registerPrompts(server: Server): void {
  server.prompt({ name: "test_simple_prompt", title: "Simple Test Prompt", description: "A simple prompt without arguments" }, () => "This is a simple prompt for testing.");
  server.prompt(
    {
      name: "test_prompt_with_arguments",
      title: "Prompt With Arguments",
      description: "A prompt with required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ] as const,
      complete: { arg1: ["paris", "park", "party", "test", "testing"], arg2: ["alpha", "beta", "gamma"] },
    },
    ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
  );
  server.prompt(
    {
      name: "test_prompt_with_embedded_resource",
      title: "Prompt With Embedded Resource",
      description: "A prompt that includes an embedded resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }] as const,
    },
    ({ resourceUri }) => [
      { role: "user", content: { type: "resource", resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
      { role: "user", content: "Please process the embedded resource above." },
    ],
  );
  server.prompt({ name: "test_prompt_with_image", title: "Prompt With Image", description: "A prompt that includes image content" }, () => [
    { role: "user", content: { type: "image", data: PNG_PIXEL_BASE64, mimeType: "image/png" } },
    { role: "user", content: "Please analyze the image above." },
  ]);
}
