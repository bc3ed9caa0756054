import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { formatVerifyReport, verify, VerifyCheck } from "./verify";
import type { VerifyReport } from "./verify";
import { createBrokenWeather, createWeather, DASHBOARD_URI } from "./weather.fixture";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function track<T extends { server: Server }>(made: T): T {
  servers.push(made.server);
  return made;
}

const status = (report: VerifyReport) => Object.fromEntries(report.checks.map((c) => [c.id, c.status]));
const errorsOf = (report: VerifyReport) => report.findings.filter((f) => f.severity === "error").map((f) => `${f.check} ${f.subject}: ${f.message}`);

/** A server built without @proto/mcp-apps: ui:// resources and tool metadata exactly as given. */
function foreign(setup: (server: Server) => void): Server {
  const server = createServer({ name: "foreign", version: "2.0.0" });
  server.use({ id: UI_EXTENSION_ID });
  setup(server);
  servers.push(server);
  return server;
}

describe("verify", () => {
  it("passes a good server, every check by its stable id", async () => {
    const report = await verify(track(createWeather()));
    expect(report.ok).toBe(true);
    expect(report.findings).toEqual([]);
    expect(report.server).toEqual({ name: "weather", version: "1.0.0" });
    expect(report.views).toEqual([DASHBOARD_URI]);
    expect(report.tools).toEqual(["forecast", "refresh"]);
    expect(report.checks.map((c) => c.id)).toEqual([
      "ui/negotiation",
      "ui/link-integrity",
      "ui/tool-metadata",
      "ui/mime-type",
      "ui/content-shape",
      "ui/csp-metadata",
      "ui/documentation",
    ]);
    expect(Object.values(status(report))).toEqual(Array(7).fill("pass"));
    expect(formatVerifyReport(report)).toMatch(/^MCP Apps verification of weather 1\.0\.0\n[\s\S]*PASS ui\/link-integrity\n[\s\S]*OK \(0 errors, 0 warnings\)\n$/);
  });

  it("fails a broken server: the broken link (from our tools/list error) and the non-document view", async () => {
    const report = await verify(track(createBrokenWeather()));
    expect(report.ok).toBe(false);
    expect(status(report)).toMatchObject({ [VerifyCheck.LinkIntegrity]: "fail", [VerifyCheck.ContentShape]: "fail", [VerifyCheck.MimeType]: "pass" });
    expect(errorsOf(report)).toEqual([
      'ui/link-integrity tool "radar": links to ui://weather/radar, which is not a UI resource on this server',
      "ui/content-shape view ui://weather/fragment: content is not an HTML document (it must start with <!doctype html> or <html>)",
    ]);
    const text = formatVerifyReport(report);
    expect(text).toMatch(/FAIL ui\/link-integrity\n {2}error: tool "radar" links to ui:\/\/weather\/radar[^\n]*\n {4}repair: Register the view with apps\.resource/);
    expect(text).toMatch(/FAILED \(2 errors, 0 warnings\)\n$/);
  });

  it("checks MIME types, content shape and CSP metadata of servers made without @proto/mcp-apps", async () => {
    const server = foreign((s) => {
      s.resource({ uri: "ui://f/wrong-mime", name: "a", description: "d", mimeType: "text/html" }, () => "<!doctype html><html></html>");
      s.resource({ uri: "ui://f/two", name: "b", description: "d", mimeType: UI_MIME_TYPE }, () => [{ text: "<html></html>" }, { text: "<html></html>" }]);
      s.resource(
        { uri: "ui://f/csp", name: "c", description: "d", mimeType: UI_MIME_TYPE, _meta: { ui: { csp: { connectDomains: ["https://ok.example; script-src *"] }, prefersBorder: "yes" } } },
        (uri) => ({ uri, text: "<!DOCTYPE html><html></html>", _meta: { ui: { prefersBorder: true } } }),
      );
      s.resource({ uri: "ui://f/blob", name: "d", description: "d", mimeType: UI_MIME_TYPE, _meta: { ui: { prefersBorder: true } } }, (uri) => ({ uri, blob: new TextEncoder().encode("<!doctype html><html></html>"), _meta: { ui: { prefersBorder: true } } }));
      s.tool({ name: "legacy", description: "d", inputSchema: { type: "object" }, _meta: { "ui/resourceUri": "ui://f/blob" } }, () => "");
      s.tool({ name: "badvis", description: "d", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://f/blob", visibility: ["everyone"] } } }, () => "");
    });
    const report = await verify({ server });
    expect(report.ok).toBe(false);
    expect(report.views).toEqual(["ui://f/blob", "ui://f/csp", "ui://f/two", "ui://f/wrong-mime"]);
    expect(errorsOf(report)).toEqual([
      'ui/tool-metadata tool "badvis": visibility must be a non-empty array of "model" and/or "app"',
      'ui/tool-metadata tool "legacy": uses the deprecated flat _meta["ui/resourceUri"] only',
      'ui/mime-type view ui://f/wrong-mime: is listed as "text/html"',
      'ui/mime-type view ui://f/wrong-mime: content mimeType is "text/html"',
      "ui/content-shape view ui://f/two: resources/read answered 2 content items; exactly one is required",
      'ui/csp-metadata view ui://f/csp: resources/list _meta.ui: csp.connectDomains: "https://ok.example; script-src *" contains a space, \';\', \',\' or a quote, which would inject CSP directives; list one origin per entry',
      "ui/csp-metadata view ui://f/csp: resources/list _meta.ui: prefersBorder must be true or false",
    ]);
    expect(report.findings).toContainEqual(expect.objectContaining({ check: "ui/csp-metadata", severity: "warning", subject: "view ui://f/csp", message: expect.stringMatching(/differs between/) }));
  });

  it("reports a link to a view the server cannot read, and warns about documentation without failing", async () => {
    const server = foreign((s) => {
      s.tool({ name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://f/missing" } } }, () => "");
      s.resource({ uri: "ui://f/view", name: "v", mimeType: UI_MIME_TYPE }, () => "<!doctype html><html></html>");
    });
    const report = await verify({ server });
    expect(errorsOf(report)).toEqual(['ui/link-integrity tool "show": links to ui://f/missing, which the server does not serve']);
    const warnings = report.findings.filter((f) => f.severity === "warning").map((f) => `${f.check} ${f.subject}: ${f.message}`);
    expect(warnings).toEqual([
      'ui/documentation tool "show": has a view but no description',
      "ui/documentation view ui://f/view: has no description",
      "ui/documentation view ui://f/view: does not set prefersBorder",
    ]);
  });

  it("warns, without failing, about a server that does not advertise the extension or has no views", async () => {
    const server = createServer({ name: "plain", version: "1" });
    servers.push(server);
    server.tool({ name: "t", inputSchema: { type: "object" } }, () => "");
    const report = await verify({ server });
    expect(report.ok).toBe(true);
    expect(status(report)).toMatchObject({ [VerifyCheck.Negotiation]: "warn", [VerifyCheck.Documentation]: "warn" });
  });

  it("rejects when the server cannot be connected to", async () => {
    await expect(verify({ server: { connect: () => Promise.reject(new Error("no way")) } })).rejects.toThrow(/no way/);
  });
});
