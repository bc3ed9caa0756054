/**
 * The resources of the everything server (MCP 2025-11-25 server/resources): a text and a
 * binary resource, a template with a variable, and a watched resource whose subscribers are
 * told when it changes.
 */
import type { Server } from "@proto/mcp-server";
import { PNG_PIXEL_BASE64 } from "./fixtures";

/** The URI of the resource that changes over time (subscribe to it). */
export const WATCHED_URI = "test://watched-resource";

/** Stops the watched resource's updates. */
export type StopUpdates = () => void;

/** Options of `registerResources`. */
export interface ResourceOptions {
  /** How often the watched resource changes, in ms; 0 never. Default 3,000. */
  readonly watchedIntervalMs?: number;
}

/** Registers the resources and the template; returns the function that stops the watched resource's timer. */
export function registerResources(server: Server, options: ResourceOptions = {}): StopUpdates {
  server.resource(
    { uri: "test://static-text", name: "static-text", title: "Static Text Resource", description: "A static text resource for testing", mimeType: "text/plain" },
    () => "This is the content of the static text resource.",
  );
  server.resource(
    { uri: "test://static-binary", name: "static-binary", title: "Static Binary Resource", description: "A static binary resource (image) for testing", mimeType: "image/png" },
    () => ({ blob: PNG_PIXEL_BASE64 }),
  );
  server.resourceTemplate(
    {
      uriTemplate: "test://template/{id}/data",
      name: "template",
      title: "Resource Template",
      description: "A resource template with parameter substitution",
      mimeType: "application/json",
      complete: { id: ["1", "2", "3", "123"] },
    },
    (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
  );
  let revision = 0;
  server.resource(
    { uri: WATCHED_URI, name: "watched-resource", title: "Watched Resource", description: "A resource that changes every few seconds; subscribe to hear of it", mimeType: "text/plain" },
    () => (revision === 0 ? "Watched resource content" : `Watched resource content (revision ${revision})`),
  );
  const every = options.watchedIntervalMs ?? 3_000;
  if (every <= 0) return () => {};
  const timer = setInterval(() => {
    revision += 1;
    server.resourceUpdated(WATCHED_URI);
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}
