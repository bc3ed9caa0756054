/**
 * Namespaced URIs of children's resources: `ui://` views through the `@proto/mcp-apps`
 * gateway URIs (`ui://<gateway>/<child>/<encoded child URI>`, keeping the scheme hosts
 * require), every other URI and URI template as `<child>+<uri>` (child names hold no `+`, so
 * the first `+` splits it back exactly). Both forms are reversible and never collide between
 * children.
 */
import { fromGatewayUri, isUiUri, toGatewayUri } from "@proto/mcp-apps";

/** One child's URI mapping. */
export interface UriMapper {
  /** Child URI to exposed URI. */
  toExposed(uri: string): string;
  /** Child URI template to exposed template (a `ui://` template keeps its own form: views are static). */
  toExposedTemplate(template: string): string;
  /** True for a view URI. */
  isView(uri: string): boolean;
}

/** The mapping of child `child` behind gateway `gateway`. */
export function createUriMapper(gateway: string, child: string): UriMapper {
  return {
    toExposed: (uri) => (isUiUri(uri) ? toGatewayUri(gateway, child, uri) : `${child}+${uri}`),
    toExposedTemplate: (template) => `${child}+${template}`,
    isView: isUiUri,
  };
}

/** Where an exposed URI goes: the child and its own URI; undefined when it is not one of ours. */
export function parseExposedUri(gateway: string, uri: string, children: ReadonlySet<string>): { readonly child: string; readonly uri: string } | undefined {
  if (isUiUri(uri as unknown)) {
    try {
      const parts = fromGatewayUri(uri);
      return parts.gateway === gateway && children.has(parts.child) ? { child: parts.child, uri: parts.uri } : undefined;
    } catch {
      return undefined;
    }
  }
  const plus = uri.indexOf("+");
  if (plus <= 0) return undefined;
  const child = uri.slice(0, plus);
  return children.has(child) && plus + 1 < uri.length ? { child, uri: uri.slice(plus + 1) } : undefined;
}
