/**
 * The start-up banner `serveStdio` prints to stderr: who is serving, over what, and lines a
 * person can paste into the terminal to talk to the server by hand.
 */

/** What a server says about itself for the banner. */
export interface ServerSummary {
  readonly name: string;
  readonly version: string;
  /** The newest session revision (what `initialize` offers). */
  readonly protocolVersion: string;
  /** The 2026-07-28 revisions answered per request, if any (printed before `protocolVersion`). */
  readonly statelessVersions?: readonly string[];
  readonly tools: readonly string[];
}

const MAX_LISTED = 20;

// Names come from code, but a control character must still not reach a terminal.
function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
}

/** Real MCP lines: initialize, the initialized notification, tools/list, a call of the first tool. */
export function exampleLines(summary: ServerSummary): string[] {
  const lines: object[] = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: summary.protocolVersion, capabilities: {}, clientInfo: { name: "terminal", version: "1.0.0" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
  ];
  const first = summary.tools[0];
  if (first !== undefined) lines.push({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: first, arguments: {} } });
  return lines.map((line) => JSON.stringify(line));
}

/** Formats the banner, one line per `\n`, ending with a newline. */
export function formatBanner(summary: ServerSummary): string {
  const count = summary.tools.length;
  const listed = summary.tools.slice(0, MAX_LISTED).map(printable).join(", ");
  const more = count > MAX_LISTED ? `, and ${count - MAX_LISTED} more` : "";
  const versions = [...(summary.statelessVersions ?? []), summary.protocolVersion].map(printable).join(" + ");
  return [
    `${printable(summary.name)} ${printable(summary.version)} · MCP ${versions} · stdio`,
    count === 0 ? "0 tools" : `${count} tool${count === 1 ? "" : "s"}: ${listed}${more}`,
    "Reading JSON-RPC from stdin, one message per line; stdout carries only replies. Paste to try (Ctrl-D ends):",
    ...exampleLines(summary),
    "",
  ].join("\n");
}
