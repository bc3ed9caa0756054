/**
 * Test fixture (not exported): a small weather server with one view, a linked tool, an
 * app-only tool and a plain tool; and a broken variant for `verify` tests.
 * `createWeatherServer` is the default export so `proto-apps verify --module` finds it.
 */
import type { Logger } from "@proto/jsonrpc";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createApps } from "./apps";
import type { AppsOptions, McpApps } from "./apps-types";

export const DASHBOARD_URI = "ui://weather/dashboard";
export const DASHBOARD_HTML = "<!doctype html><html><head><title>Weather</title></head><body><main id=app></main></body></html>";

/** The weather server and its apps registry. */
export interface WeatherServer {
  readonly server: Server;
  readonly apps: McpApps;
}

/** Builds the good weather server. */
export function createWeather(options: AppsOptions & { logger?: Logger } = {}): WeatherServer {
  const server = createServer({ name: "weather", version: "1.0.0" }, options.logger === undefined ? {} : { logger: options.logger });
  const apps = createApps(server, options);
  apps.resource(
    {
      uri: DASHBOARD_URI,
      name: "dashboard",
      title: "Weather dashboard",
      description: "Forecast chart for one city.",
      ui: { csp: { connectDomains: ["https://api.weather.example"], resourceDomains: ["https://cdn.weather.example"] }, prefersBorder: true },
    },
    () => DASHBOARD_HTML,
  );
  apps.tool(
    {
      name: "forecast",
      description: "Forecast for a city; hosts with MCP Apps show it on the dashboard.",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      ui: { resourceUri: DASHBOARD_URI },
    },
    ({ city }) => ({ city, condition: "sunny", high: 24 }),
  );
  apps.tool(
    { name: "refresh", description: "Reloads the dashboard data (called by the view).", inputSchema: { type: "object" }, ui: { resourceUri: DASHBOARD_URI, visibility: ["app"] } },
    () => ({ refreshed: true }),
  );
  server.tool({ name: "ping_weather", description: "Plain tool.", inputSchema: { type: "object" } }, () => "pong");
  return { server, apps };
}

/** A broken server: a link to a missing view, a view that is not a document, and bad CSP on a hand-made ui:// list entry. */
export function createBrokenWeather(): WeatherServer {
  const { server, apps } = createWeather();
  apps.tool({ name: "radar", description: "Radar map.", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/radar" } }, () => "radar");
  apps.resource({ uri: "ui://weather/fragment", name: "fragment", description: "Not a document.", ui: { prefersBorder: false } }, () => "<div>just a fragment</div>");
  return { server, apps };
}

/** Default export for `proto-apps verify --module weather.fixture.ts`: a server factory. */
export default function make(): Server {
  return createWeather().server;
}

/** `--module weather.fixture.ts#broken`. */
export function broken(): Server {
  return createBrokenWeather().server;
}
