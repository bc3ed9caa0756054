/**
 * Gateway namespacing of view URIs. A gateway that aggregates child servers exposes a
 * child's `ui://weather/dashboard` as `ui://<gateway>/<child>/<encoded child URI>`, where
 * the child URI is percent-encoded whole (`encodeURIComponent`): identical URIs of
 * different children never collide, and the mapping can be undone exactly.
 *
 *   toGatewayUri("gw", "weather", "ui://weather/dashboard")
 *     === "ui://gw/weather/ui%3A%2F%2Fweather%2Fdashboard"
 */
import { isUiUri, UI_SCHEME } from "./constants";

const GATEWAY = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const CHILD = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,127}$/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The parts of a gateway URI. */
export interface GatewayUriParts {
  /** The gateway's name (the URI's authority). */
  readonly gateway: string;
  /** The child server's name (the first path segment). */
  readonly child: string;
  /** The child's own `ui://` URI. */
  readonly uri: string;
}

function show(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}...` : value) : String(value);
}

/** True when `name` can name a gateway: lowercase DNS labels (`gw`, `acme-gateway`, `eu.gw`), at most 253 characters. */
export function isGatewayName(name: unknown): name is string {
  return typeof name === "string" && name.length <= 253 && GATEWAY.test(name);
}

/** True when `name` can name a child: 1-128 of `A-Za-z0-9._~-`, not starting with a dot. */
export function isChildName(name: unknown): name is string {
  return typeof name === "string" && CHILD.test(name);
}

function checkNames(gateway: unknown, child: unknown, where: string): void {
  if (!isGatewayName(gateway)) {
    throw new TypeError(`${where}: gateway name ${show(gateway)} must be lowercase letters, digits and '-' in dot-separated labels (it becomes the URI's host, which hosts may lowercase), e.g. "gw"`);
  }
  if (!isChildName(child)) {
    throw new TypeError(`${where}: child name ${show(child)} must be 1-128 characters of A-Z a-z 0-9 . _ ~ - and not start with '.' (it becomes a path segment), e.g. "weather"`);
  }
}

/**
 * The gateway URI of a child's view. Throws a `TypeError` for a bad gateway or child name,
 * or when `uri` is not a `ui://` URI (other schemes are not namespaced here).
 */
export function toGatewayUri(gateway: string, child: string, uri: string): string {
  checkNames(gateway, child, "toGatewayUri");
  if (!isUiUri(uri)) throw new TypeError(`toGatewayUri: ${show(uri)} is not a ui:// URI; only MCP Apps views are namespaced (pass other URIs through, or namespace them your own way)`);
  if (LONE_SURROGATE.test(uri)) throw new TypeError(`toGatewayUri: ${show(uri)} contains an unpaired surrogate and cannot be percent-encoded`);
  return `${UI_SCHEME}${gateway}/${child}/${encodeURIComponent(uri)}`;
}

/**
 * Splits a gateway URI made by `toGatewayUri` back into gateway, child and the child's URI.
 * Only the exact form `toGatewayUri` writes is accepted (lowercase `ui://`, canonical
 * percent-encoding), so every gateway URI has exactly one meaning. Throws a `TypeError` that
 * says what is wrong otherwise.
 */
export function fromGatewayUri(uri: string): GatewayUriParts {
  if (typeof uri !== "string" || !uri.startsWith(UI_SCHEME)) {
    throw new TypeError(`fromGatewayUri: ${show(uri)} is not a gateway URI; gateway URIs look like "ui://<gateway>/<child>/<encoded ui:// URI>"`);
  }
  const rest = uri.slice(UI_SCHEME.length);
  const first = rest.indexOf("/");
  const second = first < 0 ? -1 : rest.indexOf("/", first + 1);
  const encoded = second < 0 ? "" : rest.slice(second + 1);
  if (second < 0 || encoded === "" || encoded.includes("/")) {
    throw new TypeError(`fromGatewayUri: ${show(uri)} is not a gateway URI; expected exactly "ui://<gateway>/<child>/<encoded ui:// URI>"`);
  }
  const gateway = rest.slice(0, first);
  const child = rest.slice(first + 1, second);
  checkNames(gateway, child, "fromGatewayUri");
  let original: string;
  try {
    original = decodeURIComponent(encoded);
  } catch {
    throw new TypeError(`fromGatewayUri: ${show(uri)} has malformed percent-encoding after the child name`);
  }
  if (!isUiUri(original)) throw new TypeError(`fromGatewayUri: ${show(uri)} does not wrap a ui:// URI (decoded ${show(original)})`);
  if (encodeURIComponent(original) !== encoded) throw new TypeError(`fromGatewayUri: ${show(uri)} is not canonically encoded; use the URI toGatewayUri produced`);
  return { gateway, child, uri: original };
}

/** True when `uri` is a well-formed gateway URI (of `gateway`, when given). Never throws. */
export function isGatewayUri(uri: unknown, gateway?: string): uri is string {
  if (typeof uri !== "string") return false;
  try {
    const parts = fromGatewayUri(uri);
    return gateway === undefined || parts.gateway === gateway;
  } catch {
    return false;
  }
}
