/**
 * CPU per call of the gateway's removal of a child's 2026-07-28 stamps from a forwarded result
 * (`packages/mcp-gateway/src/child-result.ts`): a 2025-11-25 result (looked at, not copied) and a
 * 2026-07-28 one (copied without `resultType` and the serverInfo `_meta`). Run:
 * `node --import tsx bench/gateway/child-stamps.ts`.
 */
import { withoutChildStamps } from "../../packages/mcp-gateway/src/child-result";
const old = { content: [{ type: "text", text: "x" }] };
const modern = { content: [{ type: "text", text: "x" }], resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "c", version: "1" } } };
let sink = 0;
for (const [name, r] of [["2025 result (no copy)", old], ["2026 result (copy)", modern]] as const) {
  for (let round = 0; round < 3; round++) {
    const n = 2_000_000;
    const t = process.cpuUsage();
    for (let i = 0; i < n; i++) sink += Object.keys(withoutChildStamps(r)).length;
    const u = process.cpuUsage(t);
    console.log(name, "round", round, ((u.user + u.system) * 1000 / n).toFixed(1), "ns CPU/call");
  }
}
console.log(sink > 0);
