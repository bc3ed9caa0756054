/**
 * Interop: the official SDK's `Client` (pinned 1.32.2, with its own stdio and Streamable HTTP
 * transports) against our server (@proto/mcp-server behind serveStdio in a child process, and
 * behind @proto/transport-http's Node adapter on 127.0.0.1): the end-to-end scenario.
 */
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type LoggingMessageNotification,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResponseMode } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback, REPO_ROOT } from "../support/e2e-transports";
import { createScenarioServer, SCENARIO } from "../support/scenario-server";
import { eventually, textOf } from "../support/wait";

interface Row {
  readonly name: string;
  /** Progress and logs travel before the response (false: JSON-only answers, on the standalone stream or nowhere). */
  readonly ordered: boolean;
  /**
   * Progress that reaches the SDK in the same read as the response is lost: SDK 1.32.2 handles a
   * response at once but dispatches notifications a microtask later, after the response removed
   * the progress handler. Our stdio writer sends a tool's last progress and its result in one
   * write, so over stdio the SDK sees a prefix of the progress, never all of it guaranteed.
   */
  readonly progressMayBeCut: boolean;
  /** Sampling and elicitation can reach the client during a call. */
  readonly serverRequests: boolean;
  /** `notifications/cancelled` reaches the handler. */
  readonly cancellation: boolean;
  open(): Promise<{ transport: SdkTransport; stop(): Promise<void> }>;
}

const fixture = fileURLToPath(new URL("../e2e/fixtures/scenario-stdio.ts", import.meta.url));

function httpRow(stateless: boolean, responseMode: ResponseMode): Row {
  return {
    name: `Streamable HTTP, ${stateless ? "stateless" : "stateful"}, ${responseMode} answers`,
    ordered: responseMode !== "json",
    progressMayBeCut: false,
    serverRequests: !stateless,
    cancellation: !stateless,
    async open() {
      const { server } = createScenarioServer("scenario-http");
      const handler = createNodeHttpHandler({
        stateless,
        responseMode,
        connect: (transport, context) => server.connect(transport, stateless && !context.initialize ? { initialized: {} } : {}),
      });
      const listener = createNodeHttpServer(handler);
      const port = await listenLoopback(listener);
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
      return { transport: transport as SdkTransport, stop: async () => (await closeHttp(listener), await server.close()) };
    },
  };
}

const rows: readonly Row[] = [
  {
    name: "stdio (our server in a child process)",
    ordered: true,
    progressMayBeCut: true,
    serverRequests: true,
    cancellation: true,
    async open() {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", fixture],
        cwd: REPO_ROOT,
        env: { ...process.env, TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` } as Record<string, string>,
        stderr: "inherit",
      });
      return { transport, stop: async () => {} };
    },
  },
  httpRow(false, "sse"),
  httpRow(false, "json"),
  httpRow(false, "auto"),
  httpRow(true, "auto"),
];

type Status = { waiting: number; cancelled: number };

describe.each(rows)("the SDK Client against our server over $name", (row) => {
  let client: Client;
  let stop: () => Promise<void> = async () => {};
  const logs: LoggingMessageNotification["params"][] = [];

  beforeAll(async () => {
    const opened = await row.open();
    stop = opened.stop;
    client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: "assistant",
      model: "sdk-model",
      content: { type: "text", text: `${request.params.messages.length} message(s)` },
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
    await client.connect(opened.transport);
  }, 90_000); // spawning a tsx child on a loaded machine takes seconds

  afterAll(async () => {
    await client?.close();
    await stop();
  });

  const status = async (): Promise<Status> => (await client.callTool({ name: "status" })).structuredContent as Status;

  it("initializes with 2025-11-25 and lists the tools", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: expect.stringMatching(/^scenario/), version: "1.0.0" });
    expect(client.getInstructions()).toBe("The end-to-end scenario.");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask-model", "ask-user", "big", "echo", "status", "wait", "work"]);
  });

  it("calls a tool with progress and logs; the SDK validates its structured output", async () => {
    if (row.cancellation) await client.setLoggingLevel("info");
    const progress: number[] = [];
    const result = await client.callTool({ name: "work", arguments: { steps: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ done: 3 });
    const steps = () => logs.filter((l) => l.logger === "work").map((l) => (l.data as { step: number }).step);
    if (row.ordered) {
      expect(progress).toEqual(row.progressMayBeCut ? [1, 2, 3].slice(0, progress.length) : [1, 2, 3]);
      expect(steps()).toEqual([1, 2, 3]);
    } else {
      // JSON-only answers: our server sends them on the standalone GET stream the SDK opened.
      await eventually(() => steps().length === 3, "the logs on the standalone stream");
      expect(steps()).toEqual([1, 2, 3]);
    }
    const refused = await client.callTool({ name: "work", arguments: { steps: "many" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused as { content: unknown[] })).toMatch(/steps/);
  });

  it("reads resources, gets a prompt, completes an argument", async () => {
    expect((await client.readResource({ uri: SCENARIO.resourceUri })).contents).toEqual([{ uri: SCENARIO.resourceUri, mimeType: "text/plain", text: SCENARIO.resourceText }]);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([SCENARIO.itemTemplate]);
    const item = await client.readResource({ uri: "scenario://items/abc" });
    expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ uri: "scenario://items/abc", id: "abc" });
    expect((await client.getPrompt({ name: SCENARIO.prompt, arguments: { who: "Ada" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada!" } }]);
    const completion = await client.complete({ ref: { type: "ref/prompt", name: SCENARIO.prompt }, argument: { name: "who", value: "w" } });
    expect(completion.completion.values).toEqual(["world", "wally"]);
  });

  it(row.serverRequests ? "serves the SDK client's sampling and elicitation in a call" : "fails the tool that asks for sampling on a stateless request (isError, never -32021 on a 2025 wire)", async () => {
    if (row.serverRequests) {
      expect(textOf((await client.callTool({ name: "ask-model", arguments: { question: "2+2?" } })) as { content: unknown[] })).toBe("sdk-model says 1 message(s)");
      expect(textOf((await client.callTool({ name: "ask-user" })) as { content: unknown[] })).toBe("hi Ada");
    } else {
      expect(await client.callTool({ name: "ask-model", arguments: { question: "2+2?" } })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/"sampling"/) }] });
    }
  });

  it("cancels a running call through the SDK's AbortSignal; the session goes on", async () => {
    const before = await status();
    const aborter = new AbortController();
    const call = client.callTool({ name: "wait" }, undefined, { signal: aborter.signal }).catch((error: unknown) => error);
    await eventually(async () => (await status()).waiting === before.waiting + 1, "the wait tool to start");
    aborter.abort("changed my mind");
    expect(await call).toBeDefined();
    if (row.cancellation) {
      await eventually(async () => (await status()).cancelled === before.cancelled + 1, "our handler to see the cancellation");
      expect((await status()).waiting).toBe(before.waiting);
    }
    expect(textOf((await client.callTool({ name: "echo", arguments: { text: "on" } })) as { content: unknown[] })).toBe("on");
  });
});
