/**
 * What the conformance client does in each client scenario of `@modelcontextprotocol/conformance`
 * 0.2.0-alpha.12, both requirement sets (its test servers check what arrives): connect over Streamable HTTP with
 * @proto/mcp-client, do the scenario's calls, close.
 */
import { createClient, type Client, type ClientOptions } from "@proto/mcp-client";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { schemaPreservation, skillsNoPrefetch, skillsVerify } from "./client-extensions";
import { runAuthScenario } from "./conformance-auth";
import { protocolFor } from "./protocol-choice";

/** Writes one diagnostic line (stderr: the runner saves it beside the checks). */
export type Trace = (line: string) => void;

/** Runs one scenario against `serverUrl`; rejects when it fails. */
export type ScenarioRunner = (serverUrl: string, context: unknown, trace: Trace) => Promise<void>;

const INFO = { name: "proto-conformance-client", version: "0.1.0" } as const;

async function withClient(serverUrl: string, options: Omit<ClientOptions, "info">, body: (client: Client) => Promise<void>): Promise<void> {
  const client = createClient({ info: INFO, protocol: protocolFor(process.env.MCP_CONFORMANCE_PROTOCOL_VERSION), ...options });
  try {
    await client.connect(createStreamableHttpClientTransport(serverUrl));
    await body(client);
  } finally {
    await client.close();
  }
}

/** `initialize`: the handshake, the tool list when the server offers tools, a clean close. */
const initialize: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    trace(`initialized with ${client.server?.info.name} (protocol ${client.server?.protocolVersion})`);
    if (client.server?.capabilities.tools === undefined) return;
    const { tools } = await client.listTools();
    trace(`tools: ${tools.map((t) => t.name).join(", ")}`);
  });

/** `tools_call`: calls `add_numbers` with two numbers and checks the sum it reports. */
const toolsCall: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    const { tools } = await client.listTools();
    if (!tools.some((t) => t.name === "add_numbers")) throw new Error(`the server has no add_numbers tool (it has ${tools.map((t) => t.name).join(", ")})`);
    const result = await client.callToolOrThrow("add_numbers", { a: 5, b: 3 });
    trace(`add_numbers: ${JSON.stringify(result.content)}`);
  });

/** `elicitation-sep1034-client-defaults`: accepts an empty form; the client fills in the schema defaults. */
const elicitationDefaults: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(
    serverUrl,
    {
      elicitation: {
        applyDefaults: true,
        form: (params) => {
          trace(`elicitation: ${params.message}`);
          return { action: "accept", content: {} };
        },
      },
    },
    async (client) => {
      const result = await client.callToolOrThrow("test_client_elicitation_defaults", {});
      trace(`result: ${JSON.stringify(result.content)}`);
    },
  );

/** `sse-retry`: the server closes the call's SSE stream; the client must reconnect after its `retry` delay. */
const sseRetry: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    await client.listTools();
    const result = await client.callToolOrThrow("test_reconnection", {});
    trace(`test_reconnection: ${JSON.stringify(result.content)}`);
  });

/** The handlers every 2026 scenario declares (request-metadata checks the capabilities they produce). */
const HANDLERS: Omit<ClientOptions, "info"> = {
  roots: [{ uri: "file:///conformance", name: "conformance" }],
  sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "conformance", stopReason: "endTurn" }) },
  elicitation: { form: () => ({ action: "accept", content: { confirmed: true } }) },
};

/** `request-metadata`: the envelope on every request; the first is refused with -32022 and retried. */
const requestMetadata: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, HANDLERS, async (client) => {
    trace(`connected with ${client.server?.protocolVersion}`);
    await client.ping();
    if (client.server?.capabilities.tools !== undefined) trace(`tools: ${(await client.listTools()).tools.length}`);
  });

/** `sep-2322-client-request-state`: MRTR rounds with and without requestState, an unrelated call in between, a result without resultType. */
const requestState: ScenarioRunner = (serverUrl, _context, trace) => {
  let self: Client | undefined;
  let unrelatedDone = false;
  return withClient(serverUrl, {
    elicitation: {
      form: async (params) => {
        trace(`elicitation: ${params.message}`);
        if (!unrelatedDone && self !== undefined) {
          unrelatedDone = true;
          await self.callTool("test_mrtr_unrelated", {});
        }
        return { action: "accept", content: { confirmed: true } };
      },
    },
  }, async (client) => {
    self = client;
    for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_no_result_type"]) {
      const result = await client.callTool(name, {});
      trace(`${name}: ${JSON.stringify(result.content)}`);
    }
  });
};

/** `http-standard-headers`: one request of each kind, so every Mcp-Method and Mcp-Name header is seen. */
const standardHeaders: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    for (const tool of (await client.listTools()).tools) await client.callTool(tool.name, {});
    for (const resource of (await client.listResources()).resources) await client.readResource(resource.uri);
    for (const prompt of (await client.listPrompts()).prompts) await client.getPrompt(prompt.name);
    trace("every method sent");
  });

interface ToolCallContext {
  readonly toolCalls?: readonly { readonly name: string; readonly arguments?: { readonly [key: string]: unknown } }[];
}

/** `http-custom-headers`: the calls the context names, whose x-mcp-header arguments become Mcp-Param-* headers. */
const customHeaders: ScenarioRunner = (serverUrl, context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    await client.listTools();
    for (const call of (context as ToolCallContext).toolCalls ?? []) {
      await client.callTool(call.name, call.arguments ?? {});
      trace(`called ${call.name}`);
    }
  });

/** `http-invalid-tool-headers`: lists the tools (the invalid ones are dropped) and calls every tool left. */
const invalidToolHeaders: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    const { tools } = await client.listTools();
    trace(`kept: ${tools.map((t) => t.name).join(", ")}`);
    for (const tool of tools) await client.callTool(tool.name, { region: "us-west1" });
  });

/** `json-schema-ref-no-deref`: lists a tool whose schema has a network $ref, and never fetches it. */
const refNoDeref: ScenarioRunner = (serverUrl, _context, trace) =>
  withClient(serverUrl, {}, async (client) => {
    const tools = await client.listAllTools();
    trace(`tools: ${tools.map((t) => t.name).join(", ")}`);
  });

const auth: ScenarioRunner = (serverUrl, context) => runAuthScenario(process.env.MCP_CONFORMANCE_SCENARIO ?? "", serverUrl, context);

const RUNNERS: { readonly [scenario: string]: ScenarioRunner } = {
  initialize,
  tools_call: toolsCall,
  "tools-call": toolsCall,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "elicitation-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
  "request-metadata": requestMetadata,
  "sep-2322-client-request-state": requestState,
  "http-standard-headers": standardHeaders,
  "http-custom-headers": customHeaders,
  "http-invalid-tool-headers": invalidToolHeaders,
  "json-schema-ref-no-deref": refNoDeref,
  "json-schema-2020-12-preservation": schemaPreservation(withClient),
  "sep-2640-client-no-prefetch": skillsNoPrefetch(withClient),
  "sep-2640-client-verify-digest": skillsVerify(withClient),
  "sep-2640-client-verify-size": skillsVerify(withClient),
  "sep-2640-client-verify-frontmatter": skillsVerify(withClient),
};

/** The runner of `scenario`: every `auth/*` scenario goes to the OAuth runner; undefined when unknown. */
export function scenarioRunner(scenario: string): ScenarioRunner | undefined {
  if (scenario.startsWith("auth/")) return auth;
  return Object.hasOwn(RUNNERS, scenario) ? RUNNERS[scenario] : undefined;
}

/** The scenarios this client knows by name (auth/* aside). */
export const KNOWN_SCENARIOS: readonly string[] = Object.keys(RUNNERS);
