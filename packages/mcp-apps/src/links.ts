/**
 * Link integrity (SEP-1865 "Resource Discovery": the linked resource MUST exist on the
 * server): which tools link to views, and which of those links cannot be served now.
 */
import type { LinkProblem } from "./errors";
import type { ToolUi } from "./tool-meta";
import type { UiVisibility } from "./types";

/** What the apps registry knows: views by URI and tool links by tool name. */
export interface LinkState {
  /** Registered views (`apps.resource()`), by URI. */
  readonly views: ReadonlyMap<string, unknown>;
  /** UI metadata of tools, by name: from `apps.tool()` and from every tool listed so far. */
  readonly links: ReadonlyMap<string, ToolUi>;
}

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

function registered(views: ReadonlyMap<string, unknown>): string {
  const uris = [...views.keys()].sort();
  if (uris.length === 0) return "no view is registered yet";
  const shown = uris.slice(0, 5).join(", ");
  return `registered views: ${shown}${uris.length > 5 ? `, and ${uris.length - 5} more` : ""}`;
}

/** The problems of one tool's link (empty when it can be served). */
function problemsOf(state: LinkState, tool: string, ui: ToolUi): LinkProblem[] {
  if (ui.problems.length > 0) {
    const problem = `has malformed _meta.ui: ${ui.problems.join("; ")}`;
    const repair = `Fix the tool's _meta.ui (or register it with apps.tool({ name: "${tool}", ui: { resourceUri, visibility } }), which checks it).`;
    return [{ tool, resourceUri: ui.resourceUri, problem, repair }];
  }
  if (ui.resourceUri === undefined || state.views.has(ui.resourceUri)) return [];
  const uri = ui.resourceUri;
  return [
    {
      tool,
      resourceUri: uri,
      problem: `links to ${uri.slice(0, 200)}, which is not a UI resource on this server`,
      repair: `Register the view with apps.resource({ uri: "${uri.slice(0, 200)}", name: ... }, read), or point _meta.ui.resourceUri of "${tool}" at a registered view (${registered(state.views)}).`,
    },
  ];
}

/** Checks the links of the tools named in `served` (the tools the server lists now). */
export function checkLinks(state: LinkState, served: readonly string[]): LinkReport {
  const links: ToolLink[] = [];
  const problems: LinkProblem[] = [];
  for (const tool of [...new Set(served)].sort()) {
    const ui = state.links.get(tool);
    if (ui === undefined) continue;
    links.push({ tool, resourceUri: ui.resourceUri, visibility: ui.visibility });
    problems.push(...problemsOf(state, tool, ui));
  }
  return { ok: problems.length === 0, links, problems };
}

/** A one-paragraph description of broken links for a log line. */
export function describeProblems(problems: readonly LinkProblem[]): string {
  return problems.map((p) => `- tool "${p.tool}" ${p.problem}. ${p.repair}`).join("\n");
}
