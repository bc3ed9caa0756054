/**
 * The conformance client of `@modelcontextprotocol/conformance`:
 *
 *   MCP_CONFORMANCE_SCENARIO=<scenario> [MCP_CONFORMANCE_CONTEXT=<json>] node dist/client.js <server-url>
 *
 * Runs the scenario with @proto packages only and exits 0 when it succeeded, 1 when it
 * failed, 2 when it was called wrongly. Diagnostics go to stderr.
 */
import { KNOWN_SCENARIOS, scenarioRunner } from "./client-scenarios";

function usage(message: string): never {
  process.stderr.write(
    `${message}\n\nusage: MCP_CONFORMANCE_SCENARIO=<scenario> [MCP_CONFORMANCE_CONTEXT=<json>] node client.js <server-url>\n` +
      `scenarios: ${KNOWN_SCENARIOS.join(", ")}, auth/*\n`,
  );
  process.exit(2);
}

function parseContext(text: string | undefined): unknown {
  if (text === undefined || text === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return usage("MCP_CONFORMANCE_CONTEXT is not valid JSON");
  }
}

async function main(): Promise<void> {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const serverUrl = process.argv.at(-1);
  if (process.argv.length < 3 || serverUrl === undefined || !/^https?:\/\//.test(serverUrl)) usage("the server URL (http:// or https://) must be the last argument");
  if (scenario === undefined || scenario === "") usage("MCP_CONFORMANCE_SCENARIO is not set");
  const run = scenarioRunner(scenario);
  if (run === undefined) usage(`unknown scenario ${scenario}`);
  const trace = (line: string): void => void process.stderr.write(`[${scenario}] ${line}\n`);
  await run(serverUrl, parseContext(process.env.MCP_CONFORMANCE_CONTEXT), trace);
  trace("done");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`conformance client failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
