/**
 * Multi-round input over every wire from the same handler code: three rounds with two inputs in
 * the second (form, URL consent, roots, sampling), a prompt that asks, an SSE answer (progress
 * before the input_required result), and refused state (tampered, expired, replayed for another method).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelope, post, request, type PostAnswer } from "../support/modern-http";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import type { JsonRpcPayload } from "@proto/jsonrpc";
import { ALL_CAPABILITIES, createModernScenario, INTERVIEW_ANSWERS } from "../support/modern-scenario";
import { httpWire, MODERN_WIRES, type ModernWire } from "../support/modern-wires";

/** The first round's result of `tools/call` with `params` on an in-memory instance whose state clock is `now`. */
async function mintElsewhere(params: Record<string, unknown>, now: () => number): Promise<Record<string, unknown>> {
  const server = createModernScenario(now);
  const [client, side] = createMemoryTransportPair();
  const answer = new Promise<Record<string, unknown>>((resolve) =>
    void client.start({ payload: (p: JsonRpcPayload) => "result" in p && resolve(p.result as Record<string, unknown>), error() {}, closed() {} }),
  );
  await server.connect(side);
  await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params } as JsonRpcPayload);
  const result = await answer;
  await client.close();
  await server.close();
  expect(result.resultType).toBe("input_required");
  return result;
}

describe.each(MODERN_WIRES)("multi-round input over %s", (_name, start) => {
  let wire: ModernWire;
  beforeAll(async () => {
    wire = await start();
  }, 30_000);
  afterAll(() => wire.stop());

  const env = envelope(ALL_CAPABILITIES);
  const result = (r: { response: Record<string, unknown> }) => r.response.result as Record<string, unknown>;

  it("runs three rounds to the handler's result", async () => {
    const params = { name: "interview", arguments: { topic: "t" } };
    let answer = await wire.call(1, "tools/call", { ...params, ...env });
    const asked: string[][] = [];
    for (const [round, responses] of INTERVIEW_ANSWERS.entries()) {
      expect(result(answer).resultType).toBe("input_required");
      asked.push(Object.keys(result(answer).inputRequests as object).sort());
      answer = await wire.call(10 + round, "tools/call", { ...params, ...env, inputResponses: responses, requestState: result(answer).requestState });
    }
    expect(asked).toEqual([["elicit-0"], ["elicit-1", "roots-2"], ["sample-3"]]);
    expect(result(answer)).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada accept file:///work done" }] });
  });
  it("asks from a prompt too", async () => {
    const first = await wire.call(20, "prompts/get", { name: "ask-prompt", ...env });
    const retry = await wire.call(21, "prompts/get", { name: "ask-prompt", ...env, inputResponses: { "elicit-0": { action: "accept", content: { context: "c" } } }, requestState: result(first).requestState });
    expect(result(retry)).toMatchObject({ resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "context: c" } }] });
  });
  it("sends progress before the input_required result on the request's own stream", async () => {
    const answer = await wire.call(30, "tools/call", { name: "slow-ask", ...envelope(ALL_CAPABILITIES, { progressToken: "p" }) });
    expect(answer.messages.map((m) => m.method ?? "response")).toEqual(["notifications/progress", "response"]);
    expect(result(answer).resultType).toBe("input_required");
  });
  it("refuses tampered state and state replayed for another method or tool", async () => {
    const first = await wire.call(40, "tools/call", { name: "slow-ask", ...env });
    const state = String(result(first).requestState);
    const tampered = `${state.slice(0, -3)}${state.endsWith("AAA") ? "BBB" : "AAA"}`;
    const replies = await Promise.all([
      wire.call(41, "tools/call", { name: "slow-ask", ...env, inputResponses: {}, requestState: tampered }),
      wire.call(42, "tools/call", { name: "interview", ...env, inputResponses: {}, requestState: state }),
      wire.call(43, "prompts/get", { name: "ask-prompt", ...env, inputResponses: {}, requestState: state }),
    ]);
    expect(replies.map((r) => (r.response.error as { code: number } | undefined)?.code)).toEqual([-32602, -32602, -32602]);
  });
  it("refuses state that has expired, and takes the same state while it has not", async () => {
    // Minted by another instance with the same key, its clock an hour behind: the state expired 50 minutes ago (10 minute lifetime).
    const params = { name: "slow-ask", arguments: {}, ...env };
    const expired = String((await mintElsewhere(params, () => Date.now() - 3_600_000)).requestState);
    const fresh = String((await mintElsewhere(params, () => Date.now())).requestState);
    const answers = { "elicit-0": { action: "accept", content: { ok: true } } };
    const refused = await wire.call(60, "tools/call", { ...params, inputResponses: answers, requestState: expired });
    expect(refused.response.error).toMatchObject({ code: -32602 });
    const taken = await wire.call(61, "tools/call", { ...params, inputResponses: answers, requestState: fresh });
    expect(result(taken)).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "answered accept" }] });
  });
  it("is -32021 when the request did not declare what the handler needs", async () => {
    const answer = await wire.call(50, "tools/call", { name: "slow-ask", ...envelope({}) });
    expect(answer.response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
});

describe("multi-round input over Streamable HTTP, by answer type", () => {
  let wire: ModernWire & { readonly url: string };
  beforeAll(async () => {
    wire = await httpWire();
  });
  afterAll(() => wire.stop());
  const env = envelope(ALL_CAPABILITIES);

  it("answers rounds without notifications as JSON, and rounds with progress as SSE, to their end", async () => {
    const type = (answer: PostAnswer) => answer.headers.get("content-type") ?? "";
    const params = { name: "interview", arguments: { topic: "t" }, ...env };
    let answer = await post(wire.url, request(1, "tools/call", params));
    for (const [round, responses] of INTERVIEW_ANSWERS.entries()) {
      expect(type(answer)).toMatch(/^application\/json/);
      const state = (answer.last?.result as { requestState?: unknown }).requestState;
      answer = await post(wire.url, request(2 + round, "tools/call", { ...params, inputResponses: responses, requestState: state }));
    }
    expect(type(answer)).toMatch(/^application\/json/);
    expect(answer.last?.result).toMatchObject({ resultType: "complete" });
    const slow = { name: "slow-ask", arguments: {}, ...envelope(ALL_CAPABILITIES, { progressToken: "p" }) };
    const first = await post(wire.url, request(10, "tools/call", slow));
    expect(type(first)).toMatch(/^text\/event-stream/);
    expect(first.messages.map((m) => m.method ?? "response")).toEqual(["notifications/progress", "response"]);
    const state = (first.last?.result as { requestState?: unknown }).requestState;
    const last = await post(wire.url, request(11, "tools/call", { ...slow, inputResponses: { "elicit-0": { action: "accept", content: { ok: true } } }, requestState: state }));
    expect(type(last)).toMatch(/^text\/event-stream/);
    expect(last.messages.map((m) => m.method ?? "response")).toEqual(["notifications/progress", "response"]);
    expect(last.last?.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "answered accept" }] });
  });
});
