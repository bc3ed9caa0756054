/**
 * The checks of `verify`, as pure functions over what a server listed and answered. They
 * check transport shape only (SEP-1865 "Content Requirements" and "Resource Discovery"):
 * no HTML is parsed, rendered or sanitised.
 */
import type { Resource, Tool } from "@proto/mcp-protocol";
import { isUiUri, LEGACY_RESOURCE_URI_KEY, UI_META_KEY, UI_MIME_TYPE } from "./constants";
import { decodeBase64Text, isHtmlDocument } from "./html";
import { checkUiResourceMeta } from "./meta";
import { readToolUi } from "./tool-meta";
import { VerifyCheck } from "./verify-types";
import type { VerifyFinding } from "./verify-types";

/** Collects findings. */
export type AddFinding = (finding: VerifyFinding) => void;

/** What a `resources/read` of a view gave: the result, or the error message. */
export type ReadOutcome = { readonly result: unknown } | { readonly error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const err = (check: VerifyFinding["check"], subject: string, message: string, repair: string): VerifyFinding => ({ check, severity: "error", subject, message, repair });
const warn = (check: VerifyFinding["check"], subject: string, message: string, repair: string): VerifyFinding => ({ check, severity: "warning", subject, message, repair });

/** The `ui://` URI a tool links to, if any (nested or flat key). */
export function linkedUri(tool: Tool): string | undefined {
  const ui = readToolUi(tool._meta);
  return ui?.resourceUri !== undefined && isUiUri(ui.resourceUri) ? ui.resourceUri : undefined;
}

/** Checks a tool's UI metadata and its link; `readable` says whether a view could be read. */
export function checkTool(tool: Tool, readable: (uri: string) => boolean, add: AddFinding): void {
  const subject = `tool "${tool.name}"`;
  const ui = readToolUi(tool._meta);
  if (ui === undefined) return;
  const meta = tool._meta as Record<string, unknown>;
  if (meta[LEGACY_RESOURCE_URI_KEY] !== undefined) {
    const nested = isRecord(meta[UI_META_KEY]);
    add((nested ? warn : err)(VerifyCheck.ToolMetadata, subject, `uses the deprecated flat _meta["${LEGACY_RESOURCE_URI_KEY}"]${nested ? " besides _meta.ui" : " only"}`, 'Declare _meta: { ui: { resourceUri } } (the stable nested form) and drop the flat key.'));
  }
  for (const problem of ui.problems) add(err(VerifyCheck.ToolMetadata, subject, problem, 'Declare _meta.ui as { resourceUri: "ui://...", visibility: ["model", "app"] } (visibility optional).'));
  if (ui.resourceUri !== undefined && isUiUri(ui.resourceUri) && !readable(ui.resourceUri)) {
    add(err(VerifyCheck.LinkIntegrity, subject, `links to ${ui.resourceUri}, which the server does not serve`, `Register the view ${ui.resourceUri} on the same server (apps.resource() in @proto/mcp-apps), or fix the tool's _meta.ui.resourceUri.`));
  }
  if (ui.resourceUri !== undefined && (tool.description === undefined || tool.description.trim() === "")) {
    add(warn(VerifyCheck.Documentation, subject, "has a view but no description", "Describe what the tool does and what its view shows: hosts without UI and the model see only the text."));
  }
}

function checkMeta(value: unknown, subject: string, where: string, add: AddFinding): void {
  if (value === undefined) return;
  const problems = checkUiResourceMeta(value);
  const repair = "Declare _meta.ui as { csp: { connectDomains, resourceDomains, frameDomains, baseUriDomains }, permissions: { camera: {} }, domain, prefersBorder } with plain origins such as \"https://api.example.com\".";
  for (const e of problems.errors) add(err(VerifyCheck.CspMetadata, subject, `${where}: ${e}`, repair));
  for (const w of problems.warnings) add(warn(VerifyCheck.CspMetadata, subject, `${where}: ${w}`, "Remove the key or check its spelling against the MCP Apps spec."));
}

/** Checks a `ui://` entry of `resources/list`. */
export function checkListedView(resource: Resource, add: AddFinding): void {
  const subject = `view ${resource.uri}`;
  if (resource.mimeType !== UI_MIME_TYPE) {
    add(err(VerifyCheck.MimeType, subject, `is listed as ${JSON.stringify(resource.mimeType ?? null)}`, `List it with mimeType "${UI_MIME_TYPE}" exactly (no spaces, no charset).`));
  }
  checkMeta(isRecord(resource._meta) ? resource._meta[UI_META_KEY] : undefined, subject, "resources/list _meta.ui", add);
  if (resource.description === undefined || resource.description.trim() === "") {
    add(warn(VerifyCheck.Documentation, subject, "has no description", "Describe what the view shows: hosts list views for review."));
  }
}

function checkBody(content: Record<string, unknown>, subject: string, add: AddFinding): void {
  const hasText = typeof content.text === "string";
  const hasBlob = typeof content.blob === "string";
  if (hasText === hasBlob) {
    add(err(VerifyCheck.ContentShape, subject, "content must have exactly one of text (a string) or blob (base64)", "Return the HTML document as text (recommended) or as a base64 blob, not both and not neither."));
    return;
  }
  const html = hasText ? (content.text as string) : decodeBase64Text(content.blob as string);
  if (html === undefined) {
    add(err(VerifyCheck.ContentShape, subject, "blob is not canonical base64 of UTF-8 text", "Encode the HTML's UTF-8 bytes as standard base64 with padding, or return it as text."));
  } else if (!isHtmlDocument(html)) {
    add(err(VerifyCheck.ContentShape, subject, "content is not an HTML document (it must start with <!doctype html> or <html>)", "Return a complete HTML5 document: <!doctype html><html>...</html>."));
  }
}

/** Checks a view's `resources/read` answer; `listed` is its `resources/list` entry, if listed. */
export function checkRead(uri: string, outcome: ReadOutcome, listed: Resource | undefined, add: AddFinding): void {
  const subject = `view ${uri}`;
  if ("error" in outcome) return void add(err(VerifyCheck.ContentShape, subject, `resources/read failed: ${outcome.error}`, "Make the view readable: resources/read must answer its HTML."));
  const contents = isRecord(outcome.result) ? outcome.result.contents : undefined;
  if (!Array.isArray(contents) || contents.length !== 1 || !isRecord(contents[0])) {
    const n = Array.isArray(contents) ? contents.length : 0;
    return void add(err(VerifyCheck.ContentShape, subject, `resources/read answered ${n} content items; exactly one is required`, "Answer one content item: { uri, mimeType, text } holding the whole document."));
  }
  const content = contents[0];
  if (content.uri !== uri) add(err(VerifyCheck.ContentShape, subject, `content uri is ${JSON.stringify(content.uri)}, not the URI read`, "Set the content's uri to the view's URI."));
  if (content.mimeType !== UI_MIME_TYPE) {
    add(err(VerifyCheck.MimeType, subject, `content mimeType is ${JSON.stringify(content.mimeType ?? null)}`, `Answer mimeType "${UI_MIME_TYPE}" exactly.`));
  }
  checkBody(content, subject, add);
  const contentUi = isRecord(content._meta) ? content._meta[UI_META_KEY] : undefined;
  const listedUi = isRecord(listed?._meta) ? listed._meta[UI_META_KEY] : undefined;
  checkMeta(contentUi, subject, "resources/read _meta.ui", add);
  if (listed !== undefined && JSON.stringify(contentUi ?? null) !== JSON.stringify(listedUi ?? null)) {
    add(warn(VerifyCheck.CspMetadata, subject, "_meta.ui differs between the resources/list entry and the read content", "Send the same _meta.ui on both: hosts differ in which one they read."));
  }
  const border = (isRecord(contentUi) ? contentUi.prefersBorder : undefined) ?? (isRecord(listedUi) ? listedUi.prefersBorder : undefined);
  if (border === undefined) add(warn(VerifyCheck.Documentation, subject, "does not set prefersBorder", "Set _meta.ui.prefersBorder to true or false: host defaults vary."));
}
