/**
 * The registry surface of the extension API (see `ServerExtension.installed`, `registering`,
 * `registered`, `removed`): the read-only view extensions get, and how features tell the
 * extensions about registrations.
 */
import type { Logger } from "@proto/jsonrpc";
import type { ListItems, RegistryEntry, ServerExtension, ServerRegistry } from "./extension";
import type { ListEndpoint, ListKind } from "./list-endpoint";

/** How a feature announces its registrations to the extensions in use (`FeatureHost.registry`). */
export interface RegistryHooks {
  /** Before storing `entry`: throws what an extension threw to refuse it. */
  registering(entry: RegistryEntry): void;
  /** After storing `entry`. Never throws (extension faults are logged). */
  registered(entry: RegistryEntry): void;
  /** After removing `entry`. Never throws (extension faults are logged). */
  removed(entry: RegistryEntry): void;
}

/** Creates the hooks that call every extension in `use()` order. */
export function createRegistryHooks(extensions: readonly ServerExtension[], logger: Logger): RegistryHooks {
  const notify = (hook: "registered" | "removed", entry: RegistryEntry): void => {
    for (const extension of extensions) {
      try {
        extension[hook]?.(entry);
      } catch (error) {
        logger.error(`Extension "${extension.id}" threw in ${hook}() for ${entry.kind} entry; ignored`, error);
      }
    }
  };
  return {
    registering(entry) {
      for (const extension of extensions) extension.registering?.(entry);
    },
    registered: (entry) => notify("registered", entry),
    removed: (entry) => notify("removed", entry),
  };
}

/** The read-only registry over the server's lists, found by kind when asked (features create them at start). */
export function createRegistryView(lists: ReadonlyMap<string, ListEndpoint<unknown>>): ServerRegistry {
  const list = <K extends ListKind>(kind: K): ListEndpoint<ListItems[K]> | undefined => lists.get(kind) as ListEndpoint<ListItems[K]> | undefined;
  const none: readonly never[] = Object.freeze([]);
  return {
    tools: () => list("tools")?.items() ?? none,
    tool: (name) => list("tools")?.get(name),
    resources: () => list("resources")?.items() ?? none,
    resource: (uri) => list("resources")?.get(uri),
    resourceTemplates: () => list("resourceTemplates")?.items() ?? none,
    prompts: () => list("prompts")?.items() ?? none,
  };
}
