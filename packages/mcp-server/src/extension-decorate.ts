/** Applying the extensions' list decorators for one negotiated set (see `ServerExtension.decorate`). */
import type { Logger } from "@proto/jsonrpc";
import type { DecorateContext, ListDecorator, ServerExtension } from "./extension";
import type { NegotiatedExtensions } from "./extension-negotiate";

/** Creates the `decorate` function lists use: undefined when no extension decorates `kind`. */
export function createDecorator(extensions: readonly ServerExtension[], logger: Logger) {
  return function decorate<T>(kind: string, items: readonly T[], negotiated: NegotiatedExtensions): readonly T[] | undefined {
    let out: readonly T[] | undefined;
    const extension = (id: string) => negotiated.clients.get(id);
    for (const ext of extensions) {
      const decorator = (ext.decorate as { readonly [kind: string]: ListDecorator<T> | undefined } | undefined)?.[kind];
      if (decorator === undefined) continue;
      const ctx: DecorateContext = { settings: negotiated.clients.get(ext.id), extension };
      const next: T[] = [];
      for (const item of out ?? items) {
        let kept: T | undefined;
        try {
          kept = decorator(item, ctx);
        } catch (error) {
          logger.error(`Extension "${ext.id}" threw while decorating ${kind}; the item is listed undecorated`, error);
          kept = item;
        }
        if (kept !== undefined) next.push(kept);
      }
      out = next;
    }
    return out;
  };
}
