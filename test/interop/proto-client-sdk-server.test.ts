/**
 * Interop: our client (@proto/mcp-client with our stdio and Streamable HTTP transports) against
 * the official SDK's `McpServer` (pinned 1.32.2) over real stdio (a child process) and real
 * HTTP on 127.0.0.1: the end-to-end scenario (initialize, tools with progress and logs,
 * resources, prompts, completion, sampling, cancellation).
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestError, type Transport } from "@proto/jsonrpc";
import { createClient, type Client } from "@proto/mcp-client";
import type { LoggingMessageNotificationParams } from "@proto/mcp-protocol";
import { createHttpClientTransport, createStreamableHttpClientTransport } from "@proto/transport-http";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { REPO_ROOT } from "../support/e2e-transports";
import { SCENARIO } from "../support/scenario-server";
import { createSdkScenario, type SdkScenario } from "../support/sdk-scenario-server";
import { startSdkHttpServer } from "../support/sdk-http";
import { startSdkLegacySseServer } from "../support/sdk-legacy-sse";
import { eventually, textOf } from "../support/wait";

interface Row {
  readonly name: string;
  /** Progress and logs of a call reach the client before its response, or never (the SDK's JSON answers drop them). */
  readonly notifications: "ordered" | "dropped";
  /** The server can ask the client (sampling) during a call. */
  readonly serverRequests: boolean;
  /** `notifications/cancelled` reaches the handler. */
  readonly cancellation: boolean;
  open(scenario: SdkScenario): Promise<{ transport: Transport; stop(): Promise<void>; kind?: () => string | undefined }>;
}

const fixture = fileURLToPath(new URL("./fixtures/sdk-scenario-stdio.ts", import.meta.url));

function httpRow(name: string, stateless: boolean, json: boolean, flags: Pick<Row, "notifications" | "serverRequests" | "cancellation">): Row {
  return {
    name,
    ...flags,
    async open(scenario) {
      const server = await startSdkHttpServer(scenario, { stateless, json });
      return { transport: createStreamableHttpClientTransport(server.url), stop: () => server.stop() };
    },
  };
}

const rows: readonly Row[] = [
  {
    name: "stdio (SDK server in a child process)",
    notifications: "ordered",
    serverRequests: true,
    cancellation: true,
    async open() {
      const transport = createStdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", fixture],
        cwd: REPO_ROOT,
        env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` },
      });
      return { transport, stop: async () => {} };
    },
  },
  httpRow("Streamable HTTP, stateful, SSE answers", false, false, { notifications: "ordered", serverRequests: true, cancellation: true }),
  httpRow("Streamable HTTP, stateful, JSON answers", false, true, { notifications: "dropped", serverRequests: false, cancellation: true }),
  httpRow("Streamable HTTP, stateless, SSE answers", true, false, { notifications: "ordered", serverRequests: false, cancellation: false }),
  {
    name: "legacy HTTP+SSE (2024-11-05), reached by createHttpClientTransport's fallback",
    notifications: "ordered",
    serverRequests: true,
    cancellation: true,
    async open(scenario) {
      const server = await startSdkLegacySseServer(scenario);
      const transport = createHttpClientTransport(server.url);
      return { transport, stop: () => server.stop(), kind: () => transport.kind };
    },
  },
];

describe.each(rows)("our client against the SDK McpServer over $name", (row) => {
  const scenario = createSdkScenario();
  let stop: () => Promise<void> = async () => {};
  let kind: (() => string | undefined) | undefined;
  let client: Client;
  const logs: LoggingMessageNotificationParams[] = [];

  beforeAll(async () => {
    const opened = await row.open(scenario);
    stop = opened.stop;
    kind = opened.kind;
    client = createClient({
      info: { name: "proto-host", version: "1.0.0" },
      sampling: { createMessage: () => ({ role: "assistant", model: "proto-model", content: { type: "text", text: "4" } }) },
      connectTimeoutMs: 60_000,
    });
    client.on("log", (message) => logs.push(message));
    await client.connect(opened.transport);
  }, 90_000); // spawning a tsx child on a loaded machine takes seconds

  afterAll(async () => {
    await client?.close();
    await stop();
  });

  it("initializes and lists the tools", async () => {
    expect(client.server).toMatchObject({ protocolVersion: "2025-11-25", info: { name: expect.stringMatching(/^sdk-scenario/) }, instructions: "The end-to-end scenario." });
    expect((await client.listAllTools()).map((t) => t.name).sort()).toEqual(["ask-model", "echo", "status", "wait", "work"]);
    if (kind) expect(kind()).toBe("sse");
  });

  it("calls a tool with progress and logs, validating its structured output", async () => {
    const progress: number[] = [];
    const result = await client.callToolOrThrow("work", { steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ done: 3 });
    const steps = logs.filter((l) => l.logger === "work").map((l) => (l.data as { step: number }).step);
    expect(progress).toEqual(row.notifications === "ordered" ? [1, 2, 3] : []);
    expect(steps).toEqual(row.notifications === "ordered" ? [1, 2, 3] : []);
  });

  it("reads resources and gets a prompt with completion", async () => {
    expect((await client.readResource(SCENARIO.resourceUri)).contents).toEqual([{ uri: SCENARIO.resourceUri, mimeType: "text/plain", text: SCENARIO.resourceText }]);
    const item = await client.readResource("scenario://items/7");
    expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ uri: "scenario://items/7", id: "7" });
    expect((await client.getPrompt(SCENARIO.prompt, { who: "Bo" })).messages[0]?.content).toEqual({ type: "text", text: "Hello, Bo!" });
    const completion = await client.complete({ ref: { type: "ref/prompt", name: SCENARIO.prompt }, argument: { name: "who", value: "wo" } });
    expect(completion.completion.values).toEqual(["world"]);
  });

  // The SDK loses a server request over JSON answers, and over stateless HTTP (our answer reaches
  // another transport): the call would only time out, so those rows do not try.
  it.runIf(row.serverRequests)("answers the SDK server's sampling request in the middle of a call", async () => {
    expect(textOf(await client.callToolOrThrow("ask-model", { question: "2+2?" }))).toBe("proto-model says 4");
  });

  it("cancels a running call; the connection goes on", async () => {
    const aborter = new AbortController();
    // The server may be in another process: ask it.
    const status = async () => (await client.callTool("status")).structuredContent as { waiting: number; cancelled: number };
    const before = await status();
    const call = client.callTool("wait", {}, { signal: aborter.signal }).catch((error: unknown) => error);
    await eventually(async () => (await status()).waiting === before.waiting + 1, "the wait tool to start");
    aborter.abort();
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("ABORTED");
    if (row.cancellation) await eventually(async () => (await status()).cancelled === before.cancelled + 1, "the SDK handler to see the cancellation");
    expect(textOf(await client.callTool("echo", { text: "on" }))).toBe("on");
  });
});
