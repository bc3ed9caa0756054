#!/usr/bin/env node
/**
 * The `proto-apps` bin: `proto-apps verify --module path.js[#export]` or
 * `proto-apps verify --stdio "command line"`. Exits 0 (verified, warnings allowed), 1 (a
 * check failed, or the server could not be reached) or 2 (usage).
 */

/** The optional peers the verify command needs (`@proto/mcp-apps` itself serves views without them). */
const VERIFY_PEERS = ["@proto/mcp-client", "@proto/transport-stdio"] as const;

function missingPeer(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : "";
  return VERIFY_PEERS.find((name) => message.includes(name));
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((done) => void stream.write(text, () => done()));
}

const out: Promise<void>[] = [];
import("./cli-run")
  .catch((error: unknown) => {
    const peer = missingPeer(error);
    if (!peer) throw error;
    throw new Error(`verify needs ${VERIFY_PEERS.join(" and ")} (optional peer dependencies, missing: ${peer}): npm install -D ${VERIFY_PEERS.join(" ")}`);
  })
  .then(({ runCli }) =>
    runCli(process.argv.slice(2), {
      stdout: (text) => void out.push(write(process.stdout, text)),
      stderr: (text) => void out.push(write(process.stderr, text)),
    }),
  )
  .then(
    async (code) => {
      await Promise.all(out);
      // A loaded module may keep timers or sockets open: the verdict is final, so exit now.
      process.exit(code);
    },
    async (error: unknown) => {
      await write(process.stderr, `proto-apps: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
