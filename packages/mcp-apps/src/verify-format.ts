/** Plain-text rendering of a `VerifyReport` (what `proto-apps verify` prints). */
import type { VerifyReport } from "./verify-types";

const LABEL = { pass: "PASS", warn: "WARN", fail: "FAIL" } as const;

/** Renders a report: one line per check, each finding with its repair, then a verdict line. */
export function formatVerifyReport(report: VerifyReport): string {
  const lines: string[] = [];
  const who = report.server === undefined ? "server" : `${report.server.name} ${report.server.version}`;
  lines.push(`MCP Apps verification of ${who}`);
  lines.push(`  views: ${report.views.length === 0 ? "(none)" : report.views.join(", ")}`);
  lines.push(`  tools with UI metadata: ${report.tools.length === 0 ? "(none)" : report.tools.join(", ")}`);
  for (const check of report.checks) {
    lines.push(`${LABEL[check.status]} ${check.id}`);
    for (const f of report.findings.filter((x) => x.check === check.id)) {
      lines.push(`  ${f.severity === "error" ? "error" : "warning"}: ${f.subject} ${f.message}`);
      lines.push(`    repair: ${f.repair}`);
    }
  }
  const errors = report.findings.filter((f) => f.severity === "error").length;
  const warnings = report.findings.length - errors;
  const counts = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  lines.push(report.ok ? `OK (${counts})` : `FAILED (${counts})`);
  return `${lines.join("\n")}\n`;
}
