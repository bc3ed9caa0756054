// The physical floor of bench/gateway.mjs: one more process between the client and the child,
// doing the least a relay can do. Two ways:
//   pipe   upstream stdin piped to the child's stdin, the child's stdout to upstream stdout; no
//          parsing: what one more process hop costs on this machine
//   json   the same, but each line is split out, JSON.parse'd and JSON.stringify'd on the way
//          (both directions, one write per input chunk): the hop plus the codec of a forwarder
// Run: node bench/lib/relay.mjs pipe|json -- COMMAND ARGS...
import { spawn } from "node:child_process";

const mode = process.argv[2];
const at = process.argv.indexOf("--");
if ((mode !== "pipe" && mode !== "json") || at === -1 || at + 1 >= process.argv.length) {
  process.stderr.write("usage: node bench/lib/relay.mjs pipe|json -- COMMAND ARGS...\n");
  process.exit(2);
}
const [command, ...args] = process.argv.slice(at + 1);
const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
child.on("exit", (code) => process.exit(code ?? 1));
process.stdin.on("end", () => child.stdin.end());

/** Copies `from` to `to` line by line, each line parsed and encoded again. */
function forwardJson(from, to) {
  let rest = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) if (line.length > 0) out += `${JSON.stringify(JSON.parse(line))}\n`;
    if (out.length > 0) to.write(out);
  });
}

if (mode === "pipe") {
  process.stdin.pipe(child.stdin);
  child.stdout.pipe(process.stdout);
} else {
  forwardJson(process.stdin, child.stdin);
  forwardJson(child.stdout, process.stdout);
}
