/**
 * What the conformance client does in each client scenario of `@modelcontextprotocol/conformance`
 * 0.1.16 (its test servers check what arrives): connect over Streamable HTTP with
 * @proto/mcp-client, do the scenario's calls, close.
 */
import { createClient, type Client, type ClientOptions } from "@proto/mcp-client";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { runAuthScenario } from "./conformance-auth";

/** Writes one diagnostic line (stderr: the runner saves it beside the checks). */
export type Trace = (line: string) => void;

/** Runs one scenario against `serverUrl`; rejects when it fails. */
export type ScenarioRunner = (serverUrl: string, context: unknown, trace: Trace) => Promise<void>;

const INFO = { name: "proto-conformance-client", version: "0.1.0" } as const;

async function withClient(serverUrl: string, options: Omit<ClientOptions, "info">, body: (client: Client) => Promise<void>): Promise<void> {
  const client = createClient({ info: INFO, ...options });
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

const auth: ScenarioRunner = (serverUrl, context) => runAuthScenario(process.env.MCP_CONFORMANCE_SCENARIO ?? "", serverUrl, context);

const RUNNERS: { readonly [scenario: string]: ScenarioRunner } = {
  initialize,
  tools_call: toolsCall,
  "tools-call": toolsCall,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "elicitation-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
};

/** The runner of `scenario`: every `auth/*` scenario goes to the OAuth runner; undefined when unknown. */
export function scenarioRunner(scenario: string): ScenarioRunner | undefined {
  if (scenario.startsWith("auth/")) return auth;
  return Object.hasOwn(RUNNERS, scenario) ? RUNNERS[scenario] : undefined;
}

/** The scenarios this client knows by name (auth/* aside). */
export const KNOWN_SCENARIOS: readonly string[] = Object.keys(RUNNERS);
