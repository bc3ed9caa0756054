// Process helpers for the bench scripts: resident memory and CPU time of a child (Linux /proc),
// newline-JSON reading, waiting for exit. Elsewhere the /proc readers return undefined.
import { readFileSync } from "node:fs";

/** Resident set size of a process in bytes (VmRSS), or undefined where /proc is missing. */
export function rssOf(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) of a process in microseconds, or undefined where /proc is missing. */
export function cpuOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime, in USER_HZ (100/s)
  } catch {
    return undefined;
  }
}

/** Calls `onLine` for each newline-terminated line of a readable stream (utf8). */
export function onLines(stream, onLine) {
  let rest = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) if (line.length > 0) onLine(line);
  });
}

/** Resolves when the child has exited (at once if it already has). */
export function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

/** The machine the figures were taken on: CPU, cores, memory, Node, load average. */
export async function describeMachine() {
  const os = await import("node:os");
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((l) => Math.round(l * 10) / 10),
  };
}
