/**
 * Error classes recognised across copies of a package: its ESM and CJS builds loaded side by
 * side (one dependency `require`s @proto/jsonrpc, another `import`s it), or two bundles. Each
 * copy defines its own class, so a plain `instanceof` fails across them; a brand under a
 * `Symbol.for` key (one registry per realm, shared by every copy) names the class instead.
 */

/** The registry key every copy of every @proto package shares. */
const BRAND: unique symbol = Symbol.for("@proto/error-brand") as never;

type Branded = { readonly [BRAND]?: string };

/** True when `value` is an instance of a class branded `brand` (by any copy of it), or of a subclass. */
export function hasErrorBrand(value: unknown, brand: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (let at: object | null = Object.getPrototypeOf(value) as object | null; at !== null; at = Object.getPrototypeOf(at) as object | null) {
    if (Object.prototype.hasOwnProperty.call(at, BRAND) && (at as Branded)[BRAND] === brand) return true;
  }
  return false;
}

/**
 * Brands `ctor` (name it `@proto/<package>:<Class>`) and makes `value instanceof ctor` true for
 * instances of any copy of it, so checks written with `instanceof` hold across ESM and CJS
 * builds. Subclasses keep the ordinary `instanceof` unless branded themselves. Call once, right
 * after the class.
 */
export function brandError(ctor: abstract new (...args: never[]) => Error, brand: string): void {
  Object.defineProperty(ctor.prototype, BRAND, { value: brand });
  Object.defineProperty(ctor, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this === ctor) return hasErrorBrand(value, brand);
      return Function.prototype[Symbol.hasInstance].call(this, value);
    },
  });
}
