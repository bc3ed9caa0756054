/**
 * The server's dispatch tables: request and notification routes by method (from features
 * and extensions), interceptors by method, and the features and extensions themselves.
 */
import type { Logger } from "@proto/jsonrpc";
import type { NotificationRoute, Route } from "./core";
import type { ExtensionInterceptor, ServerExtension } from "./extension";
import type { AnyFeature } from "./feature";
import type { SessionState } from "./session-state";
import type { ServerSession } from "./session-types";

const CORE_METHODS = new Set(["initialize", "ping", "server/discover"]);

/** Creates empty tables. */
export function createRouter() {
  const routes = new Map<string, Route>();
  const notificationRoutes = new Map<string, NotificationRoute>();
  const interceptors = new Map<string, ExtensionInterceptor[]>();
  const features: AnyFeature[] = [];
  const extensions: ServerExtension[] = [];

  /** Adds a feature; throws a `TypeError` when one of its methods already has a handler. */
  function addFeature(feature: AnyFeature): void {
    for (const [method, run] of Object.entries(feature.requests ?? {})) {
      if (routes.has(method) || CORE_METHODS.has(method)) throw new TypeError(`Feature "${feature.name}": method "${method}" already has a handler`);
      routes.set(method, { feature, run });
    }
    for (const [method, run] of Object.entries(feature.notifications ?? {})) {
      if (notificationRoutes.has(method)) throw new TypeError(`Feature "${feature.name}": notification "${method}" already has a handler`);
      notificationRoutes.set(method, { feature, run });
    }
    features.push(feature);
  }

  /**
   * Adds an extension; returns the methods it added. Throws a `TypeError` for a bad or
   * duplicate extension. `install` runs after the checks and before anything is added; when it
   * throws, nothing is added.
   */
  function addExtension(extension: ServerExtension, install: () => void = () => {}): string[] {
    if (typeof extension !== "object" || extension === null || typeof extension.id !== "string" || extension.id === "") {
      throw new TypeError("use(extension): pass an object with a non-empty string id");
    }
    if (extensions.some((e) => e.id === extension.id)) throw new TypeError(`use(): extension "${extension.id}" is already in use`);
    const methods = Object.entries(extension.methods ?? {});
    for (const [method, handler] of methods) {
      if (routes.has(method) || CORE_METHODS.has(method)) throw new TypeError(`use("${extension.id}"): method "${method}" already has a handler`);
      if (typeof handler !== "function") throw new TypeError(`use("${extension.id}"): the handler of "${method}" must be a function`);
    }
    install();
    extensions.push(extension);
    for (const [method, handler] of methods) routes.set(method, { feature: undefined, run: (params, ctx) => handler(params, ctx) });
    for (const [method, interceptor] of Object.entries(extension.intercept ?? {})) {
      const list = interceptors.get(method) ?? [];
      list.push(interceptor);
      interceptors.set(method, list);
    }
    return methods.map(([method]) => method);
  }

  /** Releases every feature's state of a closed session; a feature that throws is logged. */
  function closeStates(state: SessionState, view: ServerSession, logger: Logger): void {
    for (const feature of features) {
      if (feature.closeState === undefined || !state.features.has(feature)) continue;
      try {
        feature.closeState(state.features.get(feature), view);
      } catch (error) {
        logger.error(`Feature "${feature.name}" threw while closing session ${view.id}`, error);
      }
    }
  }

  return { routes, notificationRoutes, interceptors, features, extensions, addFeature, addExtension, closeStates };
}
