/**
 * One chaos round (the cluster test runs a few, `bench/cluster-chaos.ts` runs 100): a long tool
 * call with progress whose stream the client reads through the balancer, resuming with
 * `Last-Event-ID` whenever a connection ends; the first instance other than the executor that
 * carries the stream is killed with SIGKILL mid-stream, then restarted. Reports what the client
 * got: progress in order, results, duplicates.
 */
import type { Cluster, Message, RawSession } from "./rig";
import { readResuming } from "./rig";

/** What one round saw. */
export interface ChaosRound {
  readonly executor: string;
  readonly killed: string | undefined;
  readonly progress: readonly number[];
  readonly results: number;
  readonly duplicates: number;
  readonly connections: number;
  /** Each event: the instance and connection it came on, and its id (to tell where a fault came from). */
  readonly trace: readonly string[];
}

/** Runs one round of `steps` progress notifications `delayMs` apart; request id `id`. */
export async function chaosRound(cluster: Cluster, session: RawSession, id: number, steps = 20, delayMs = 40): Promise<ChaosRound> {
  const first = await session.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "long", arguments: { steps, delayMs }, _meta: { progressToken: id } } });
  const executor = first.headers.get("x-instance") ?? "?";
  let killed: string | undefined;
  let connections = 0;
  const trace: string[] = [];
  const messages = await readResuming(session, first, (seen) => seen.some((m: Message) => m.id === id), {
    maxConnections: 200,
    onConnection: (instance) => {
      connections += 1;
      trace.push(`connect ${instance} (last ${trace.at(-1) ?? "-"})`);
    },
    async onEvent(instance, index, eventId) {
      trace.push(`${index}@${instance} ${eventId ?? "-"}`);
      if (killed !== undefined || instance === executor) return;
      const victim = cluster.instances.find((i) => i.name === instance);
      if (victim === undefined) return;
      killed = instance;
      await victim.kill();
    },
  });
  if (killed !== undefined) await cluster.instances.find((i) => i.name === killed)?.start();
  const progress = messages.filter((m) => m.method === "notifications/progress").map((m) => Number(m.params?.progress));
  const results = messages.filter((m) => m.id === id).length;
  const duplicates = progress.length - new Set(progress).size + Math.max(0, results - 1);
  return { executor, killed, progress, results, duplicates, connections, trace };
}
