/**
 * Chaos on the three-instance deployment (issue 19): ROUNDS (default 100) long tool calls with
 * progress, each read through HAProxy with resumption; in each round the first instance other
 * than the executor that carries the client's stream is killed with SIGKILL mid-stream, then
 * restarted. Prints results lost, duplicated, progress out of order.
 * Run: node --import tsx bench/cluster-chaos.ts   (needs redis-server and haproxy)
 */
import { chaosRound } from "../test/cluster/chaos";
import { rawSession, startCluster } from "../test/cluster/rig";
import { missingDaemons } from "../test/support/daemons";

const missing = missingDaemons("redis-server", "haproxy");
if (missing !== undefined) {
  process.stderr.write(`cluster-chaos: ${missing}\n`);
  process.exit(1);
}
const rounds = Number(process.env.ROUNDS ?? "100");
const steps = 20;
const cluster = await startCluster({ env: { CLOSE_SSE_AFTER_MS: "150" } });
let kills = 0;
let lost = 0;
let duplicated = 0;
let disordered = 0;
let connections = 0;
const started = Date.now();
try {
  const session = rawSession(cluster.url);
  await session.initialize();
  for (let round = 1; round <= rounds; round += 1) {
    const r = await chaosRound(cluster, session, round, steps);
    if (r.killed !== undefined) kills += 1;
    if (r.results === 0) lost += 1;
    duplicated += r.duplicates;
    connections += r.connections;
    const expected = Array.from({ length: steps }, (_, i) => i + 1);
    if (r.progress.length !== steps || r.progress.some((p, i) => p !== expected[i])) disordered += 1;
    if (round % 10 === 0) process.stdout.write(`  ${round}/${rounds} rounds\n`);
  }
} finally {
  await cluster.stop();
}
process.stdout.write(
  [
    `cluster chaos: ${rounds} rounds of a ${steps}-step tool call, 3 instances behind HAProxy round-robin on Redis, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `  instances killed (SIGKILL) mid-stream: ${kills}`,
    `  stream connections the client opened: ${connections} (${(connections / rounds).toFixed(1)} per round)`,
    `  results lost: ${lost}`,
    `  events duplicated: ${duplicated}`,
    `  rounds with progress missing or out of order: ${disordered}`,
    "",
  ].join("\n"),
);
