// Benchmark: tool-call argument validation, side by side, for one realistic tool schema
// (a required string, a bounded integer, an enum, a capped array of strings):
//   - ajv             the compiled validator (jsonSchemaValidator "ajv"; the default where `new Function` works)
//   - interpreter     @cfworker/json-schema (jsonSchemaValidator "interpreter"; the default where code generation is refused)
//   - zod / valibot / arktype   the same tool written with each library (validated by the library itself)
// Two figures each, in rounds whose order rotates, medians over the rounds:
//   1. the validator alone: validations per second of a valid and of an invalid argument object
//      (ajv's compiled function, cfworker's Validator, `~standard.validate`);
//   2. the whole in-process `tools/call` (our server, raw JSON-RPC client over an in-memory pair,
//      messages by reference): calls per second with valid arguments, and with invalid ones
//      (the refusal report included: for the libraries, the JSON Schema check that words it).
// Uses the BUILT packages (pnpm build). node bench/validation.mjs [--rounds 5] [--ops 100000] [--calls 20000] [--json]
import { Validator } from "@cfworker/json-schema";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createServer } from "@proto/mcp-server";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { Ajv2020 } from "ajv/dist/2020.js";
import { type } from "arktype";
import { performance } from "node:perf_hooks";
import * as v from "valibot";
import * as z from "zod";
import { emitJson, flag, fmt, median, option } from "./lib/stats.mjs";

const ROUNDS = option("rounds", 5);
const OPS = option("ops", 100_000);
const CALLS = option("calls", 20_000);

const SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1, maxLength: 200 },
    limit: { type: "integer", minimum: 1, maximum: 100 },
    mode: { type: "string", enum: ["fast", "full"] },
    tags: { type: "array", items: { type: "string" }, maxItems: 10 },
  },
  required: ["query"],
};
const LIBRARIES = {
  zod: z.object({ query: z.string().min(1).max(200), limit: z.int().min(1).max(100).optional(), mode: z.enum(["fast", "full"]).optional(), tags: z.array(z.string()).max(10).optional() }),
  valibot: toStandardJsonSchema(
    v.object({
      query: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
      limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
      mode: v.optional(v.picklist(["fast", "full"])),
      tags: v.optional(v.pipe(v.array(v.string()), v.maxLength(10))),
    }),
  ),
  arktype: type({ query: "1 <= string <= 200", "limit?": "1 <= number.integer <= 100", "mode?": "'fast' | 'full'", "tags?": "string[] <= 10" }),
};
const VALID = { query: "weather in paris", limit: 10, mode: "fast", tags: ["a", "b", "c"] };
const INVALID = { query: "", limit: 500, mode: "slow", tags: ["a", 2] };

// ---- 1. the validators alone ----------------------------------------------------------------

function validators() {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(SCHEMA);
  const cf = new Validator(SCHEMA, "2020-12", false);
  const out = { ajv: (value) => ajv(value), interpreter: (value) => cf.validate(value).valid };
  for (const [name, schema] of Object.entries(LIBRARIES)) out[name] = (value) => !schema["~standard"].validate(value).issues;
  return out;
}

function opsPerSecond(fn, value) {
  const start = performance.now();
  for (let i = 0; i < OPS; i++) fn(value);
  return (OPS / (performance.now() - start)) * 1000;
}

// ---- 2. the whole tools/call ---------------------------------------------------------------

async function connect(side) {
  const server = createServer({ name: "bench", version: "1" }, { jsonSchemaValidator: side === "interpreter" ? "interpreter" : "ajv" });
  server.tool({ name: "search", inputSchema: LIBRARIES[side] ?? SCHEMA }, ({ query }) => query);
  const pending = new Map();
  let next = 1;
  const [clientSide, serverSide] = createMemoryTransportPair({ wire: false });
  await clientSide.start({ payload: (m) => (pending.get(m.id)?.(m), pending.delete(m.id)), error() {}, closed() {} });
  await server.connect(serverSide);
  const call = (method, params) => new Promise((resolve) => (pending.set(next, resolve), void clientSide.send({ jsonrpc: "2.0", id: next++, method, params })));
  await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
  await clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { call, close: () => server.close() };
}

async function callsPerSecond(side, args, expectError) {
  const { call, close } = await connect(side);
  const params = { name: "search", arguments: args };
  const first = await call("tools/call", params);
  if ((first.result?.isError === true) !== expectError) throw new Error(`${side}: unexpected answer ${JSON.stringify(first).slice(0, 300)}`);
  for (let i = 0; i < 1000; i++) await call("tools/call", params);
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) await call("tools/call", params);
  const rate = (CALLS / (performance.now() - start)) * 1000;
  await close();
  return rate;
}

// ---- run -------------------------------------------------------------------------------------

const SIDES = ["ajv", "interpreter", "zod", "valibot", "arktype"];
const runs = Object.fromEntries(SIDES.map((s) => [s, { valid: [], invalid: [], callValid: [], callInvalid: [] }]));
const fns = validators();
for (const side of SIDES) if (fns[side](VALID) !== true || fns[side](INVALID) !== false) throw new Error(`${side} does not agree on the samples`);
for (let round = 0; round < ROUNDS; round++) {
  for (const side of [...SIDES.slice(round % SIDES.length), ...SIDES.slice(0, round % SIDES.length)]) {
    runs[side].valid.push(opsPerSecond(fns[side], VALID));
    runs[side].invalid.push(opsPerSecond(fns[side], INVALID));
    runs[side].callValid.push(await callsPerSecond(side, VALID, false));
    runs[side].callInvalid.push(await callsPerSecond(side, INVALID, true));
  }
}
const summary = Object.fromEntries(SIDES.map((s) => [s, Object.fromEntries(Object.entries(runs[s]).map(([k, list]) => [k, median(list)]))]));
process.stdout.write(`tool-call argument validation, ${ROUNDS} rounds, Node ${process.version} (medians; ops/s = validations per second)\n`);
process.stdout.write(`  ${"validator".padEnd(12)} ${"alone, valid".padStart(14)} ${"alone, invalid".padStart(15)} ${"tools/call, valid".padStart(18)} ${"tools/call, invalid".padStart(20)}\n`);
for (const side of SIDES) {
  const s = summary[side];
  process.stdout.write(`  ${side.padEnd(12)} ${fmt(s.valid).padStart(14)} ${fmt(s.invalid).padStart(15)} ${fmt(s.callValid).padStart(18)} ${fmt(s.callInvalid).padStart(20)}\n`);
}
if (flag("json")) emitJson({ options: { rounds: ROUNDS, ops: OPS, calls: CALLS }, runs, summary });
