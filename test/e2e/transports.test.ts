/**
 * One scenario, every transport: our client (@proto/mcp-client) against our server
 * (@proto/mcp-server) over in-memory, stdio (a child process), Streamable HTTP (stateful and
 * stateless; JSON, SSE and auto answers) and WebSocket. Each row states what its transport
 * cannot carry (server requests on stateless HTTP, notifications on JSON-only HTTP), and the
 * scenario asserts the outcome the spec gives there instead of skipping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createClient, type Client } from "@proto/mcp-client";
import type { LoggingMessageNotificationParams } from "@proto/mcp-protocol";
import { e2eTransportCases, type E2eConnection, type E2eTransportCase } from "../support/e2e-transports";
import { SCENARIO } from "../support/scenario-server";
import { eventually, textOf } from "../support/wait";

/** The era the client speaks, and the answers that differ between them (2026-07-28 CHECKLIST). */
const ERAS = [
  { protocol: "2025-11-25", missingResource: -32002 },
  { protocol: "2026-07-28", missingResource: -32602 },
] as const;

type Era = (typeof ERAS)[number];

/**
 * What a transport carries on the 2026-07-28 wire: server requests travel inside the call's
 * `input_required` result (basic/patterns/mrtr), so every transport carries them; a call's
 * notifications travel only on its own response stream (no standalone GET stream, so a JSON
 * answer carries none); a broken stream is not resumed (no `Last-Event-ID`); the log level the
 * client set travels in every request's envelope (`logLevel`), so it binds on every transport; a
 * cancelled HTTP call closes its own POST stream, which reaches its handler even when stateless.
 */
function onEra(row: E2eTransportCase, era: Era): E2eTransportCase & { readonly era: Era } {
  if (era.protocol === "2025-11-25") return { ...row, era };
  return { ...row, era, serverRequests: true, notifications: row.notifications === "ordered" ? "ordered" : "none", sessionState: true, cancellation: true, cutsStreams: false };
}

describe.each(ERAS.flatMap((era) => e2eTransportCases().map((row) => onEra(row, era))))("scenario over $name, MCP $era.protocol", (row) => {
  const { era } = row;
  let connection: E2eConnection;
  let client: Client;
  const logs: LoggingMessageNotificationParams[] = [];
  const sampling = { waiting: 0, aborted: 0 };

  beforeAll(async () => {
    connection = await row.open();
    client = createClient({
      info: { name: "e2e-host", version: "1.0.0" },
      sampling: {
        createMessage: (params, { signal }) => {
          const answer = { role: "assistant", model: "e2e-model", content: { type: "text", text: `${params.messages.length} message(s)` } } as const;
          const question = params.messages[0]?.content;
          if (!(question && "text" in question && question.text === "hang")) return answer;
          // Waits until the server cancels this request (it does when its own call is cancelled).
          sampling.waiting++;
          return new Promise((resolve) => signal.addEventListener("abort", () => (sampling.waiting--, sampling.aborted++, resolve(answer)), { once: true }));
        },
      },
      elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) },
      connectTimeoutMs: 60_000,
      protocol: era.protocol,
    });
    client.on("log", (message) => logs.push(message));
    await client.connect(connection.transport);
  }, 90_000); // spawning a tsx child on a loaded machine takes seconds

  afterAll(async () => {
    await client?.close();
    await connection?.stop();
  });

  it("opens on the era asked for, with the server's capabilities", () => {
    expect(client.server).toMatchObject({ protocolVersion: era.protocol, info: { version: "1.0.0" }, instructions: "The end-to-end scenario." });
    expect(client.server?.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {}, logging: {} });
  });

  it("lists the tools with their schemas", async () => {
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name).sort()).toEqual(["ask-model", "ask-user", "big", "echo", "status", "wait", "work"]);
    expect(tools.tools.find((t) => t.name === "work")?.outputSchema).toMatchObject({ required: ["done"] });
  });

  it("calls a tool that reports progress and logs", async () => {
    if (row.sessionState) await client.setLoggingLevel("info");
    const progress: number[] = [];
    const result = await client.callTool("work", { steps: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(result.structuredContent).toEqual({ done: 3 });
    const steps = () => logs.filter((l) => l.logger === "work").map((l) => (l.data as { step: number }).step);
    if (row.notifications === "ordered") {
      expect(progress).toEqual([1, 2, 3]);
      expect(steps()).toEqual([1, 2, 3]);
    } else if (row.notifications === "eventual") {
      // The standalone stream carries them: they arrive, in order, maybe after the response.
      await eventually(() => steps().length === 3, "the three log messages on the standalone stream");
      expect(steps()).toEqual([1, 2, 3]);
    } else {
      // Stateless JSON-only: nothing can carry them. A later call proves none was in flight.
      await client.callTool("echo", { text: "after" });
      expect(progress).toEqual([]);
      expect(steps()).toEqual([]);
    }
  });

  it("answers 64 concurrent calls, each with its own result", async () => {
    const texts = Array.from({ length: 64 }, (_, i) => `call ${i} ${"é".repeat(i)}`);
    const results = await Promise.all(texts.map((text) => client.callTool("echo", { text })));
    expect(results.map(textOf)).toEqual(texts);
  });

  it("carries a 1 MiB result intact", async () => {
    const result = await client.callTool("big", { size: 1 << 20 });
    const text = textOf(result) ?? "";
    expect(text.length).toBe(1 << 20);
    expect(text.slice(-16)).toBe("0123456789abcdef");
  });

  it("validates arguments before the tool runs", async () => {
    const refused = await client.callTool("work", { steps: 0 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/minimum/);
  });

  it("reads a resource and a templated resource", async () => {
    const read = await client.readResource(SCENARIO.resourceUri);
    expect(read.contents).toEqual([{ uri: SCENARIO.resourceUri, mimeType: "text/plain", text: SCENARIO.resourceText }]);
    const item = await client.readResource("scenario://items/42");
    expect(JSON.parse((item.contents[0] as { text: string }).text)).toEqual({ uri: "scenario://items/42", id: "42" });
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual([SCENARIO.itemTemplate]);
    await expect(client.readResource("scenario://nothing")).rejects.toMatchObject({ code: era.missingResource });
  });

  it("gets a prompt and completes its argument", async () => {
    const prompt = await client.getPrompt(SCENARIO.prompt, { who: "Ada" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Hello, Ada!" } }]);
    const completion = await client.complete({ ref: { type: "ref/prompt", name: SCENARIO.prompt }, argument: { name: "who", value: "wa" } });
    expect(completion.completion.values).toEqual(["wally"]);
  });

  it(row.serverRequests ? "serves sampling and elicitation in the middle of a call" : "fails the tool that asks for sampling it cannot carry (no capability on a stateless request): an isError result", async () => {
    if (row.serverRequests) {
      expect(textOf(await client.callTool("ask-model", { question: "2+2?" }))).toBe("e2e-model says 1 message(s)");
      expect(textOf(await client.callTool("ask-user"))).toBe("hi Ada");
    } else {
      // A stateless request carries no client capabilities, so the server refuses before sending.
      expect(await client.callTool("ask-model", { question: "2+2?" })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/"sampling"/) }] });
    }
  });

  it.runIf(row.serverRequests && row.cancellation)("cancelling a call cancels the sampling request its handler is waiting on", async () => {
    const aborter = new AbortController();
    const call = client.callTool("ask-model", { question: "hang" }, { signal: aborter.signal }).catch((error: unknown) => error);
    await eventually(() => sampling.waiting === 1, "the server's sampling request to reach the client");
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
    await eventually(() => sampling.aborted === 1, "the server to cancel its sampling request");
    expect(sampling.waiting).toBe(0);
  });

  it("cancels a running call; the session goes on", async () => {
    const aborter = new AbortController();
    const status = async () => (await client.callTool("status")).structuredContent as { waiting: number; cancelled: number };
    const before = await status();
    const call = client.callTool("wait", {}, { signal: aborter.signal }).catch((error: unknown) => error);
    await eventually(async () => (await status()).waiting === before.waiting + 1, "the wait tool to start");
    aborter.abort(new Error("the user changed their mind"));
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("ABORTED");
    if (row.cancellation) {
      await eventually(async () => (await status()).cancelled === before.cancelled + 1, "the handler to see the cancellation");
      expect((await status()).waiting).toBe(before.waiting);
    }
    expect(textOf(await client.callTool("echo", { text: "still here" }))).toBe("still here");
    await client.ping();
  });

  it.runIf(row.cutsStreams)("resumed the streams the server cut on purpose", () => {
    expect(connection.resumptions?.()).toBeGreaterThan(0);
  });
});
