// CPU time of a process with nanosecond resolution (Linux): the sum of `sum_exec_runtime` in
// /proc/PID/task/*/schedstat over all its threads (the main thread, libuv's pool, V8's workers).
// /proc/PID/stat counts in ticks of 10 ms, too coarse for a few hundred calls of tens of µs.
import { readdirSync, readFileSync } from "node:fs";

/** CPU time of every thread of `pid` in microseconds, or undefined where /proc is missing. */
export function cpuUsOf(pid) {
  let tasks;
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return undefined;
  }
  let ns = 0;
  for (const task of tasks) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1000;
}
