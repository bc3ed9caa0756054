/**
 * The everything MCP Apps dashboard in a real browser: headless Chromium (Debian's
 * `chromium`, which `.ci/run` installs) driven by playwright-core, a host page on another
 * origin reaching the everything HTTP endpoint through its CORS option with the official SDK
 * client, and the official ext-apps `AppBridge` rendering the view (`fixtures/dashboard-host.ts`).
 * Checks what a host relies on: the view initializes, reports its size, renders results, calls
 * its app-only tool through the host, shows tool errors, ignores messages that do not come from
 * its host, and answers `ui/resource-teardown`.
 */
import { existsSync } from "node:fs";
import { createServer, type Server as NodeServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser, type FrameLocator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_URI } from "../../examples/everything/src/apps";
import { startHttpServer, type RunningHttpServer } from "../../examples/everything/src/http";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

if (!existsSync(CHROMIUM)) {
  throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH`);
}

let browser: Browser;
let page: Page;
let everything: RunningHttpServer;
let pages: NodeServer;

/** Serves the host page and its bundled script; resolves with the page's origin. */
async function serveHostPage(): Promise<string> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./fixtures/dashboard-host.ts", import.meta.url))],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "chrome120",
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  pages = createServer((req, res) => {
    if (req.url === "/host.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(script);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><html><body><script src="/host.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
}


const view = (): FrameLocator => page.frameLocator("#view");

beforeAll(async () => {
  const origin = await serveHostPage();
  everything = await startHttpServer({ port: 0, watchedIntervalMs: 0, cors: { origins: [origin] } });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  page = await browser.newPage();
  await page.goto(`${origin}/`);
  await page.evaluate(([url, uri]) => window.openDashboard(url, uri), [everything.url, DASHBOARD_URI] as const);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await everything?.close();
  await new Promise((resolve) => (pages === undefined ? resolve(undefined) : pages.close(resolve)));
});

describe("the everything dashboard under the official AppBridge in Chromium", () => {
  it("initializes and reports its size", async () => {
    const sizes = (await page.evaluate(() => window.dashboardHost?.sizes)) ?? [];
    expect(sizes.length).toBeGreaterThan(0);
    expect(sizes[0]).toEqual({ width: expect.any(Number), height: expect.any(Number) });
    expect(sizes[0]?.height).toBeGreaterThan(0);
  });

  it("renders a forwarded tool result and calls its app-only tool through the host", async () => {
    await page.evaluate(() => window.dashboardHost?.showDashboard());
    await expect.poll(() => view().locator("#calls").textContent()).toBe("1");
    await view().locator("#refresh").click();
    await expect.poll(() => view().locator("#calls").textContent()).toBe("2");
  });

  it("shows tool errors: an isError result, and a tools/call the host fails", async () => {
    await page.evaluate(() => window.dashboardHost?.sendToolResult({ content: [{ type: "text", text: "the forecast service is down" }], isError: true }));
    await expect.poll(() => view().locator("#error").textContent()).toBe("the forecast service is down");
    await page.evaluate(() => window.dashboardHost?.failCalls("refresh refused by the host"));
    await view().locator("#refresh").click();
    await expect.poll(() => view().locator("#error").textContent()).toMatch(/refresh refused by the host/);
    expect(await view().locator("#calls").textContent()).toBe("2");
  });

  it("ignores messages from frames other than its host, and answers ui/resource-teardown", async () => {
    const forged = { jsonrpc: "2.0", method: "ui/notifications/tool-result", params: { content: [], structuredContent: { calls: 999, at: "forged" } } };
    await page.evaluate((message) => window.dashboardHost?.forge(message), forged);
    // The teardown round trip comes after the forged message: had the view taken it, it would show now.
    expect(await page.evaluate(() => window.dashboardHost?.teardown())).toEqual({});
    expect(await view().locator("#calls").textContent()).toBe("2");
    expect(await view().locator("#at").textContent()).not.toBe("forged");
  });
});
