/**
 * Keeps prototype keys out of decoded data. `JSON.parse` itself stores `"__proto__"` as an
 * own property, but handlers that merge, assign or deep-copy that data would walk into
 * `Object.prototype`. So a message carrying `__proto__` anywhere, or a `constructor` whose
 * value holds a `prototype` member (the two known pollution gadgets), is refused.
 */

/**
 * True when the raw text could hold a dangerous key: it names `__proto__` or `constructor`
 * (the `constructor.prototype` gadget needs both keys, so one of them is enough to look for),
 * or it uses a `\u` escape (the only JSON escape that can spell a letter in disguise). Three
 * native scans; the walk in `findPrototypeKey` runs only when this says yes. `proto` alone
 * would be cheaper but MCP messages carry `protocolVersion` and would always walk.
 */
export function mayHoldPrototypeKey(text: string): boolean {
  return text.includes("__proto__") || text.includes("constructor") || text.includes("\\u");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * Returns the first dangerous key found in `value` (`"__proto__"` or
 * `"constructor.prototype"`), or undefined. Recursive: call it only on data whose depth the
 * scanner has already bounded.
 */
export function findPrototypeKey(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findPrototypeKey(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Object.hasOwn(value, "__proto__")) return "__proto__";
  if (Object.hasOwn(value, "constructor")) {
    const ctor = value["constructor"];
    if (isRecord(ctor) && Object.hasOwn(ctor, "prototype")) return "constructor.prototype";
  }
  for (const key in value) {
    const found = findPrototypeKey(value[key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
