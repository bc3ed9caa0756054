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

/** What one executor round saw. */
export interface ExecutorRound {
  readonly executor: string;
  readonly killed: boolean;
  /** Answers to the call (1 expected: its result, or the -32603 `instance_lost` error). */
  readonly answers: readonly Message[];
  readonly progress: readonly number[];
}

/**
 * One round of the executor's death: a long tool call (`long`: not safe to repeat; `long_read`:
 * read-only, so a survivor runs it again) whose executing instance is killed with SIGKILL after
 * `killAfter` progress notifications; the client resumes with `Last-Event-ID` until it is
 * answered. The instance is restarted after.
 */
export async function executorRound(cluster: Cluster, session: RawSession, id: number, tool: "long" | "long_read", steps = 20, delayMs = 40, killAfter = 5): Promise<ExecutorRound> {
  const first = await session.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: tool, arguments: { steps, delayMs }, _meta: { progressToken: id } } });
  const executor = first.headers.get("x-instance") ?? "?";
  const victim = cluster.instances.find((i) => i.name === executor);
  let seen = 0;
  let killed = false;
  const messages = await readResuming(
    session,
    first,
    (got) => {
      seen = got.filter((m) => m.method === "notifications/progress").length;
      return got.some((m) => m.id === id && m.method === undefined);
    },
    {
      maxConnections: 400,
      async onEvent() {
        if (killed || seen < killAfter || victim === undefined) return;
        killed = true;
        await victim.kill();
      },
    },
  );
  if (killed) await victim?.start();
  return {
    executor,
    killed,
    answers: messages.filter((m) => m.id === id && m.method === undefined),
    progress: messages.filter((m) => m.method === "notifications/progress").map((m) => Number(m.params?.progress)),
  };
}
