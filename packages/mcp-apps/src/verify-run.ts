/**
 * `verify`: connects to a server as an MCP Apps host would (declaring
 * `io.modelcontextprotocol/ui` with `text/html;profile=mcp-app`), lists its tools and
 * resources, reads every view, and checks transport shape under stable check ids
 * (`VerifyCheck`). It never renders or sanitises HTML.
 */
import type { Transport } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import type { Resource, Tool } from "@proto/mcp-protocol";
import { isUiUri, UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { AppsFaultCode } from "./errors";
import { readToolUi } from "./tool-meta";
import { checkListedView, checkRead, checkTool, linkedUri } from "./verify-checks";
import type { ReadOutcome } from "./verify-checks";
import { VerifyCheck } from "./verify-types";
import type { VerifyCheckResult, VerifyFinding, VerifyReport } from "./verify-types";

/** Anything with `connect(transport)`: a `@proto/mcp-server` server, or another implementation. */
export interface Connectable {
  connect(transport: Transport): Promise<unknown>;
}

/** What to verify: a server object (connected in memory) or a transport to a running server (closed when done). */
export type VerifyTarget = { readonly server: Connectable } | { readonly transport: Transport };

/** Options of `verify`. */
export interface VerifyOptions {
  /** Milliseconds for connecting and for each request. Default 30,000. */
  readonly timeoutMs?: number;
}

interface Gathered {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function brokenLinkFindings(error: unknown): VerifyFinding[] | undefined {
  const data = (error as { data?: { code?: unknown; links?: unknown } } | undefined)?.data;
  if (data?.code !== AppsFaultCode.BrokenLink || !Array.isArray(data.links)) return undefined;
  return data.links.map((l: { tool?: unknown; problem?: unknown; repair?: unknown }) => ({
    check: VerifyCheck.LinkIntegrity,
    severity: "error" as const,
    subject: `tool "${String(l.tool)}"`,
    message: String(l.problem),
    repair: String(l.repair),
  }));
}

async function gather(client: Client, add: (f: VerifyFinding) => void): Promise<Gathered> {
  const capabilities = client.server?.capabilities ?? {};
  let tools: readonly Tool[] = [];
  let resources: readonly Resource[] = [];
  if (capabilities.tools !== undefined) {
    try {
      tools = await client.listAllTools();
    } catch (error) {
      const findings = brokenLinkFindings(error) ?? [
        { check: VerifyCheck.LinkIntegrity, severity: "error" as const, subject: "tools/list", message: `tools/list failed: ${messageOf(error)}`, repair: "Make tools/list answer for a client that negotiated MCP Apps." },
      ];
      findings.forEach(add);
    }
  }
  if (capabilities.resources !== undefined) {
    try {
      resources = await client.listAllResources();
    } catch (error) {
      add({ check: VerifyCheck.ContentShape, severity: "error", subject: "resources/list", message: `resources/list failed: ${messageOf(error)}`, repair: "Make resources/list answer for a client that negotiated MCP Apps." });
    }
  }
  return { tools, resources };
}

async function readViews(client: Client, uris: readonly string[]): Promise<Map<string, ReadOutcome>> {
  const reads = new Map<string, ReadOutcome>();
  for (const uri of uris) {
    try {
      reads.set(uri, { result: await client.readResource(uri) });
    } catch (error) {
      reads.set(uri, { error: messageOf(error) });
    }
  }
  return reads;
}

const ORDER: readonly string[] = Object.values(VerifyCheck);

/** Findings grouped by check (in `VerifyCheck` order), then by subject; stable within a subject. */
function sortFindings(findings: readonly VerifyFinding[]): VerifyFinding[] {
  const rank = (f: VerifyFinding) => ORDER.indexOf(f.check);
  return [...findings].sort((a, b) => rank(a) - rank(b) || (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0));
}

function summarize(findings: readonly VerifyFinding[]): VerifyCheckResult[] {
  return Object.values(VerifyCheck).map((id) => {
    const mine = findings.filter((f) => f.check === id);
    return { id, status: mine.some((f) => f.severity === "error") ? "fail" : mine.length > 0 ? "warn" : "pass" };
  });
}

async function run(client: Client, add: (f: VerifyFinding) => void): Promise<Omit<VerifyReport, "ok" | "checks" | "findings">> {
  const server = client.server;
  if (server?.capabilities.extensions?.[UI_EXTENSION_ID] === undefined) {
    add({ check: VerifyCheck.Negotiation, severity: "warning", subject: "initialize", message: `the server did not advertise capabilities.extensions["${UI_EXTENSION_ID}"] to a client that declared it with ${UI_MIME_TYPE}`, repair: "Advertise the extension when the client declares it (createApps() from @proto/mcp-apps does), so hosts know views are available." });
  }
  const { tools, resources } = await gather(client, add);
  const listed = new Map(resources.filter((r) => isUiUri(r.uri)).map((r) => [r.uri, r] as const));
  for (const resource of listed.values()) checkListedView(resource, add);
  const linked = tools.flatMap((t) => linkedUri(t) ?? []);
  const views = [...new Set([...listed.keys(), ...linked])].sort();
  const reads = await readViews(client, views);
  for (const uri of views) {
    const outcome = reads.get(uri) as ReadOutcome;
    // A linked view that cannot be read at all is a link-integrity failure of the tool, reported there.
    if (listed.has(uri) || !("error" in outcome)) checkRead(uri, outcome, listed.get(uri), add);
  }
  const readable = (uri: string): boolean => reads.get(uri) !== undefined && !("error" in (reads.get(uri) as ReadOutcome));
  const uiTools = tools.filter((t) => readToolUi(t._meta) !== undefined);
  for (const tool of uiTools) checkTool(tool, readable, add);
  if (views.length === 0 && uiTools.length === 0) {
    add({ check: VerifyCheck.Documentation, severity: "warning", subject: "server", message: "the server lists no ui:// views and no tool links to one", repair: "Register views and link tools to them, or this server has nothing for MCP Apps hosts." });
  }
  return { server: server === undefined ? undefined : { name: server.info.name, version: server.info.version }, views, tools: uiTools.map((t) => t.name).sort() };
}

/**
 * Verifies the MCP Apps side of a server. Resolves with a report (`ok` false when a check
 * failed); rejects only when the server cannot be connected to. Closes what it opened: the
 * client, and the transport (a given one too).
 */
export async function verify(target: VerifyTarget, options: VerifyOptions = {}): Promise<VerifyReport> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  let transport: Transport;
  if ("server" in target) {
    const [clientSide, serverSide] = createMemoryTransportPair();
    try {
      await target.server.connect(serverSide);
    } catch (error) {
      await Promise.all([clientSide.close(), serverSide.close()]).catch(() => undefined);
      throw error;
    }
    transport = clientSide;
  } else {
    transport = target.transport;
  }
  const client = createClient({
    info: { name: "proto-apps-verify", version: "0.1.0" },
    extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } },
    validateToolOutput: false,
    connectTimeoutMs: timeoutMs,
    requestTimeoutMs: timeoutMs,
  });
  const findings: VerifyFinding[] = [];
  try {
    await client.connect(transport);
    const found = await run(client, (f) => void findings.push(f));
    const sorted = sortFindings(findings);
    return { ok: !sorted.some((f) => f.severity === "error"), checks: summarize(sorted), findings: sorted, ...found };
  } finally {
    await client.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
  }
}
