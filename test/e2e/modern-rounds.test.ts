/**
 * Multi-round input over every wire from the same handler code: three rounds with two inputs in
 * the second (form, URL consent, roots, sampling), a prompt that asks, an SSE answer (progress
 * before the input_required result), and refused state (tampered, replayed for another method).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelope } from "../support/modern-http";
import { ALL_CAPABILITIES, INTERVIEW_ANSWERS } from "../support/modern-scenario";
import { MODERN_WIRES, type ModernWire } from "../support/modern-wires";

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
  it("is -32021 when the request did not declare what the handler needs", async () => {
    const answer = await wire.call(50, "tools/call", { name: "slow-ask", ...envelope({}) });
    expect(answer.response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
});
