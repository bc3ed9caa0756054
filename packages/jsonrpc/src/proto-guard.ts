/**
 * Keeps prototype keys out of decoded data. `JSON.parse` itself stores `"__proto__"` as an
 * own property, but handlers that merge, assign or deep-copy that data would walk into
 * `Object.prototype`. So a message carrying `__proto__` anywhere, or a `constructor` whose
 * value holds a `prototype` member (the two known pollution gadgets), is refused.
 */

/**
 * True when the raw text could hold a dangerous key: it names `__proto__` or holds `uctor`
 * (every `constructor` does; the `constructor.prototype` gadget needs both keys, so one of them
 * is enough to look for), or it uses a `\u` escape (the only JSON escape that can spell a letter
 * in disguise). Three native scans; the walk in `findPrototypeKey` runs only when this says yes,
 * so a false yes costs a walk and never a refusal. `uctor`, not `constructor`: V8 scans for a
 * pattern's first letter, and `c` is everywhere in MCP text (`io.modelcontextprotocol/...`,
 * `clientCapabilities`): 80 ns against 15 ns on a 286-byte modern request. `proto` alone
 * would be cheaper still, but MCP messages carry `protocolVersion` and would always walk.
 */
export function mayHoldPrototypeKey(text: string): boolean {
  return text.includes("__proto__") || text.includes("uctor") || text.includes("\\u");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** A dangerous key found in decoded data, and where. */
export interface PrototypeKeyFound {
  /** `"__proto__"` or `"constructor.prototype"`. */
  readonly key: string;
  /** The members leading to the object holding it, from the value searched (`["params", "arguments", "a"]`; array indexes as numbers). */
  readonly path: readonly (string | number)[];
}

function search(value: unknown, path: (string | number)[]): PrototypeKeyFound | undefined {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const found = search(value[i], path);
      if (found !== undefined) return found;
      path.pop();
    }
    return undefined;
  }
  if (Object.hasOwn(value, "__proto__")) return { key: "__proto__", path };
  if (Object.hasOwn(value, "constructor")) {
    const ctor = value["constructor"];
    if (isRecord(ctor) && Object.hasOwn(ctor, "prototype")) return { key: "constructor.prototype", path };
  }
  for (const key in value) {
    path.push(key);
    const found = search(value[key], path);
    if (found !== undefined) return found;
    path.pop();
  }
  return undefined;
}

/**
 * Returns the first dangerous key found in `value` (`"__proto__"` or
 * `"constructor.prototype"`) with its path, or undefined. Recursive: call it only on data whose
 * depth the scanner has already bounded.
 */
export function findPrototypeKey(value: unknown): PrototypeKeyFound | undefined {
  return search(value, []);
}

/** A path for messages: `params.arguments.a`, `params.items[2]`; members that are not identifiers are quoted (`["a b"]`). */
export function formatPath(path: readonly (string | number)[]): string {
  let text = "";
  for (const part of path) {
    if (typeof part === "number") text += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) text += text === "" ? part : `.${part}`;
    else text += `[${JSON.stringify(part.length > 64 ? `${part.slice(0, 64)}...` : part)}]`;
  }
  return text;
}
