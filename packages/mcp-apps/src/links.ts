/**
 * Link integrity (SEP-1865 "Resource Discovery": the linked resource MUST exist on the
 * server): which served tools link to views, and which of those links cannot be served now.
 */
import type { Resource, Tool } from "@proto/mcp-protocol";
import { isUiUri } from "./constants";
import type { LinkProblem } from "./errors";
import type { ToolUi } from "./tool-meta";
import { readToolUi } from "./tool-meta";
import type { UiVisibility } from "./types";

/** One tool's link as reported by `apps.checkLinks()`. */
export interface ToolLink {
  readonly tool: string;
  readonly resourceUri: string | undefined;
  readonly visibility: readonly UiVisibility[];
}

/** The result of `apps.checkLinks()`. */
export interface LinkReport {
  /** True when every link can be served. */
  readonly ok: boolean;
  /** Links of the tools served now, sorted by tool name. */
  readonly links: readonly ToolLink[];
  /** The links that cannot be served, with their repair. */
  readonly problems: readonly LinkProblem[];
}

function registered(views: ReadonlySet<string>): string {
  const uris = [...views].sort();
  if (uris.length === 0) return "no view is registered yet";
  const shown = uris.slice(0, 5).join(", ");
  return `registered views: ${shown}${uris.length > 5 ? `, and ${uris.length - 5} more` : ""}`;
}

/** The problems of one tool's link (empty when it can be served). */
function problemsOf(views: ReadonlySet<string>, tool: string, ui: ToolUi): LinkProblem[] {
  if (ui.problems.length > 0) {
    const problem = `has malformed _meta.ui: ${ui.problems.join("; ")}`;
    const repair = `Fix the tool's _meta.ui (or register it with apps.tool({ name: "${tool}", ui: { resourceUri, visibility } }), which checks it).`;
    return [{ tool, resourceUri: ui.resourceUri, problem, repair }];
  }
  if (ui.resourceUri === undefined || views.has(ui.resourceUri)) return [];
  const uri = ui.resourceUri;
  return [
    {
      tool,
      resourceUri: uri,
      problem: `links to ${uri.slice(0, 200)}, which is not a UI resource on this server`,
      repair: `Register the view with apps.resource({ uri: "${uri.slice(0, 200)}", name: ... }, read), or point _meta.ui.resourceUri of "${tool}" at a registered view (${registered(views)}).`,
    },
  ];
}

/** Checks the links of `tools` (the tools the server serves now) against `resources` (its static resources). */
export function checkLinks(tools: readonly Tool[], resources: readonly Resource[]): LinkReport {
  const views = new Set(resources.map((r) => r.uri).filter(isUiUri));
  const links: ToolLink[] = [];
  const problems: LinkProblem[] = [];
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const ui = readToolUi(tool._meta);
    if (ui === undefined) continue;
    links.push({ tool: tool.name, resourceUri: ui.resourceUri, visibility: ui.visibility });
    problems.push(...problemsOf(views, tool.name, ui));
  }
  return { ok: problems.length === 0, links, problems };
}

/** A one-paragraph description of broken links for a log line. */
export function describeProblems(problems: readonly LinkProblem[]): string {
  return problems.map((p) => `- tool "${p.tool}" ${p.problem}. ${p.repair}`).join("\n");
}
