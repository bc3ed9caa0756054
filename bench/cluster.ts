/**
 * tools/call throughput and latency (issue 19), one run of each: one instance on the in-memory
 * stores, one instance on the Redis stores (both reached directly), and three instances on Redis
 * through HAProxy round-robin. CONCURRENCY clients (default 8), each with its own 2025-11-25
 * session, call a trivial tool back to back for SECONDS (default 5) per setup. On a 2-core
 * machine the three-instance figure shows the overhead of the deployment, not scaling.
 * Run: node --import tsx bench/cluster.ts   (needs redis-server and haproxy)
 */
import { rawSession, startCluster, startInstance } from "../test/cluster/rig";
import type { RawSession } from "../test/cluster/rig";
import { missingDaemons, startRedis } from "../test/support/daemons";

const missing = missingDaemons("redis-server", "haproxy");
if (missing !== undefined) {
  process.stderr.write(`cluster bench: ${missing}\n`);
  process.exit(1);
}
const concurrency = Number(process.env.CONCURRENCY ?? "8");
const seconds = Number(process.env.SECONDS ?? "5");

interface Figures {
  readonly name: string;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(name: string, url: string): Promise<Figures> {
  const sessions: RawSession[] = [];
  for (let i = 0; i < concurrency; i += 1) {
    const session = rawSession(url);
    await session.initialize();
    sessions.push(session);
  }
  // warm-up: every instance has rebuilt its replica of every session
  for (const session of sessions) for (let i = 0; i < 6; i += 1) await session.call(i + 1, "tools/call", { name: "whoami", arguments: {} });
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    sessions.map(async (session) => {
      for (let id = 100; performance.now() < end; id += 1) {
        const t = performance.now();
        try {
          await session.call(id, "tools/call", { name: "whoami", arguments: {} });
          latencies.push(performance.now() - t);
        } catch {
          errors += 1;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return { name, perSecond: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

const results: Figures[] = [];
{
  const memory = await startInstance("memory", { STORES: "memory" });
  results.push(await load("1 instance, in-memory stores", `http://127.0.0.1:${memory.port}/mcp`));
  await memory.stop();
}
{
  const redis = await startRedis();
  const one = await startInstance("redis", { REDIS_URL: `redis://127.0.0.1:${redis.port}` });
  results.push(await load("1 instance, Redis stores", `http://127.0.0.1:${one.port}/mcp`));
  await one.stop();
  await redis.stop();
}
{
  const cluster = await startCluster();
  results.push(await load("3 instances, Redis, HAProxy", cluster.url));
  await cluster.stop();
}
const base = results[0] as Figures;
process.stdout.write(`tools/call, ${concurrency} concurrent sessions, ${seconds} s each\n`);
for (const r of results) {
  const ratio = base.perSecond / r.perSecond;
  process.stdout.write(
    `  ${r.name.padEnd(32)} ${r.perSecond.toFixed(0).padStart(6)} calls/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  errors ${r.errors}  (time per call x${ratio.toFixed(2)} of in-memory)\n`,
  );
}
