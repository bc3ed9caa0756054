/** Public types of `verify`: stable check ids, findings and the report. */

/** The stable ids of the checks `verify` runs. */
export const VerifyCheck = {
  /** The server advertises `io.modelcontextprotocol/ui` to a client that declared it (warning only). */
  Negotiation: "ui/negotiation",
  /** Every tool's `_meta.ui.resourceUri` names a view the server serves. */
  LinkIntegrity: "ui/link-integrity",
  /** Tool `_meta.ui` is the nested form with a valid visibility. */
  ToolMetadata: "ui/tool-metadata",
  /** Views are listed and read as exactly `text/html;profile=mcp-app`. */
  MimeType: "ui/mime-type",
  /** A read answers exactly one content item for the URI, text or base64 blob, holding an HTML document. */
  ContentShape: "ui/content-shape",
  /** `_meta.ui` (CSP origins, permissions, domain, prefersBorder) is well-formed on list entry and content. */
  CspMetadata: "ui/csp-metadata",
  /** Descriptions and explicit border preference (warnings only). */
  Documentation: "ui/documentation",
} as const;

/** One of `VerifyCheck`. */
export type VerifyCheck = (typeof VerifyCheck)[keyof typeof VerifyCheck];

/** One problem found. Errors fail verification; warnings do not. */
export interface VerifyFinding {
  readonly check: VerifyCheck;
  readonly severity: "error" | "warning";
  /** What it is about, e.g. `tool "forecast"` or `view ui://weather/dashboard`. */
  readonly subject: string;
  readonly message: string;
  /** What to do about it. */
  readonly repair: string;
}

/** The outcome of each check. */
export interface VerifyCheckResult {
  readonly id: VerifyCheck;
  readonly status: "pass" | "warn" | "fail";
}

/** What `verify` found. */
export interface VerifyReport {
  /** True when no check failed (warnings allowed). */
  readonly ok: boolean;
  /** The server's `serverInfo`, when it initialized. */
  readonly server: { readonly name: string; readonly version: string } | undefined;
  /** The views checked (listed `ui://` resources and linked URIs), sorted. */
  readonly views: readonly string[];
  /** The tools with UI metadata, sorted. */
  readonly tools: readonly string[];
  /** Every check, in a fixed order. */
  readonly checks: readonly VerifyCheckResult[];
  readonly findings: readonly VerifyFinding[];
}
