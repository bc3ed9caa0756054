/**
 * Chaos on the three-instance deployment (issue 19): ROUNDS (default 100) long tool calls with
 * progress, each read through HAProxy with resumption; in each round the first instance other
 * than the executor that carries the client's stream is killed with SIGKILL mid-stream, then
 * restarted. Prints results lost, duplicated, progress out of order. Then EXECUTOR_ROUNDS (default
 * 100) rounds that kill the instance *executing* the call, alternating a tool not safe to repeat
 * (answered -32603 instance_lost by a survivor) and a read-only one (run again by a survivor):
 * prints calls answered, lost, answered twice.
 * Run: node --import tsx bench/cluster-chaos.ts   (needs redis-server and haproxy)
 */
import { chaosRound, executorRound } from "../test/cluster/chaos";
import { rawSession, startCluster } from "../test/cluster/rig";
import { missingDaemons } from "../test/support/daemons";

const missing = missingDaemons("redis-server", "haproxy");
if (missing !== undefined) {
  process.stderr.write(`cluster-chaos: ${missing}\n`);
  process.exit(1);
}
const rounds = Number(process.env.ROUNDS ?? "100");
const executorRounds = Number(process.env.EXECUTOR_ROUNDS ?? "100");
const steps = 20;
const cluster = await startCluster({ env: { CLOSE_SSE_AFTER_MS: "150", LEASE_MS: "900" } });
let kills = 0;
let lost = 0;
let duplicated = 0;
let disordered = 0;
let connections = 0;
const executor = { killed: 0, failed: 0, rerun: 0, lost: 0, twice: 0, disordered: 0, other: 0 };
const started = Date.now();
let executorStarted = started;
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
  executorStarted = Date.now();
  for (let round = 1; round <= executorRounds; round += 1) {
    const tool = round % 2 === 1 ? "long" : "long_read";
    const r = await executorRound(cluster, session, 10_000 + round, tool, steps);
    if (r.killed) executor.killed += 1;
    if (r.answers.length === 0) executor.lost += 1;
    if (r.answers.length > 1) executor.twice += 1;
    const answer = r.answers[0];
    const reason = (answer?.error as { data?: { reason?: string } } | undefined)?.data?.reason;
    if (reason === "instance_lost") executor.failed += 1;
    else if (answer?.result !== undefined) executor.rerun += 1;
    else if (answer !== undefined) executor.other += 1;
    if (r.progress.some((p, i) => p !== i + 1)) executor.disordered += 1;
    if (round % 10 === 0) process.stdout.write(`  ${round}/${executorRounds} executor rounds\n`);
  }
} finally {
  await cluster.stop();
}
process.stdout.write(
  [
    `cluster chaos: ${rounds} rounds of a ${steps}-step tool call, 3 instances behind HAProxy round-robin on Redis, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `  instances killed (SIGKILL) mid-stream: ${kills}`,
    `  stream connections the client opened: ${connections} (${rounds === 0 ? "-" : (connections / rounds).toFixed(1)} per round)`,
    `  results lost: ${lost}`,
    `  events duplicated: ${duplicated}`,
    `  rounds with progress missing or out of order: ${disordered}`,
    `executor chaos: ${executorRounds} rounds killing the instance executing the call (SIGKILL), lease 900 ms, ${((Date.now() - executorStarted) / 1000).toFixed(0)} s`,
    `  executors killed mid-call: ${executor.killed}`,
    `  answered -32603 instance_lost (long, not safe to repeat): ${executor.failed}`,
    `  answered with the result of a run again (long_read, read-only): ${executor.rerun}`,
    `  answered otherwise: ${executor.other}`,
    `  calls lost (no answer): ${executor.lost}`,
    `  calls answered twice: ${executor.twice}`,
    `  rounds with progress out of order: ${executor.disordered}`,
    "",
  ].join("\n"),
);
