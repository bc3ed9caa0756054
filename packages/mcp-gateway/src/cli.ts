#!/usr/bin/env node
/**
 * The `proto-gateway` bin (see `cli-run.ts` for the commands). On crash paths (an uncaught
 * exception, process exit without an orderly close) every child process group is killed, so
 * no child outlives the gateway.
 */
import { runCli } from "./cli-run";
import { activeSpawner } from "./cli-serve";

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((done) => void stream.write(text, () => done()));
}

process.on("exit", () => activeSpawner?.killAll());
process.on("uncaughtException", (error) => {
  activeSpawner?.killAll();
  process.stderr.write(`proto-gateway: crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

const out: Promise<void>[] = [];
runCli(process.argv.slice(2), {
  stdout: (text) => void out.push(write(process.stdout, text)),
  stderr: (text) => void out.push(write(process.stderr, text)),
}).then(async (code) => {
  await Promise.all(out);
  process.exit(code);
});
