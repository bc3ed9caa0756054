/** Applying the extensions' list decorators for one session (see `ServerExtension.decorate`). */
import type { Logger } from "@proto/jsonrpc";
import type { ListDecorator, ServerExtension } from "./extension";
import type { ServerSession } from "./session-types";

/** Creates the `decorate` function lists use: undefined when no extension decorates `kind`. */
export function createDecorator(extensions: readonly ServerExtension[], logger: Logger) {
  return function decorate<T>(kind: string, items: readonly T[], session: ServerSession): readonly T[] | undefined {
    let out: readonly T[] | undefined;
    for (const extension of extensions) {
      const decorator = (extension.decorate as { readonly [kind: string]: ListDecorator<T> | undefined } | undefined)?.[kind];
      if (decorator === undefined) continue;
      const ctx = { session, settings: session.extension(extension.id) };
      const next: T[] = [];
      for (const item of out ?? items) {
        let kept: T | undefined;
        try {
          kept = decorator(item, ctx);
        } catch (error) {
          logger.error(`Extension "${extension.id}" threw while decorating ${kind}; the item is listed undecorated`, error);
          kept = item;
        }
        if (kept !== undefined) next.push(kept);
      }
      out = next;
    }
    return out;
  };
}
