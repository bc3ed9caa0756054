/**
 * A small type-level JSON Schema to TypeScript mapping, so a handler's arguments are typed
 * from the `inputSchema` literal: objects (properties, required, additionalProperties),
 * arrays (items), enums, const, primitives, `type` arrays, anyOf/oneOf. Anything else maps
 * to `unknown`. Write schemas inline (the server's `tool` infers them as `const`) or with
 * `as const`.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type Primitive<T> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? unknown[]
          : T extends "object"
            ? { [key: string]: unknown }
            : unknown;

type RequiredKeys<S> = S extends { readonly required: readonly (infer R)[] } ? R & string : never;

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S> ? K : never]: FromSchema<P[K]> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S> ? never : K]?: FromSchema<P[K]>;
      } & (S extends { readonly additionalProperties: false } ? unknown : { [key: string]: unknown })
    >
  : { [key: string]: unknown };

type ArrayOf<S> = S extends { readonly items: infer I } ? FromSchema<I>[] : unknown[];

type OfType<S, T> = T extends "object" ? ObjectOf<S> : T extends "array" ? ArrayOf<S> : Primitive<T>;

/** The TypeScript type of values valid against JSON Schema `S` (approximate; `unknown` where it cannot tell). */
export type FromSchema<S> = S extends boolean
  ? unknown
  : S extends { readonly const: infer C }
    ? C
    : S extends { readonly enum: readonly (infer E)[] }
      ? E
      : S extends { readonly anyOf: readonly (infer U)[] }
        ? FromSchema<U>
        : S extends { readonly oneOf: readonly (infer U)[] }
          ? FromSchema<U>
          : S extends { readonly type: readonly (infer T)[] }
            ? T extends unknown
              ? OfType<S, T>
              : never
            : S extends { readonly type: infer T }
              ? OfType<S, T>
              : S extends { readonly properties: object }
                ? ObjectOf<S>
                : unknown;
