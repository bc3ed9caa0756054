/** Test fixture (not exported): a lazy tool's module. Loading it is observable through a global counter. */
const host = globalThis as { __protoLazyToolLoads?: number };
host.__protoLazyToolLoads = (host.__protoLazyToolLoads ?? 0) + 1;

/** The lazy tool's handler. */
export function deploy(args: { target: string }): string {
  return `deployed to ${args.target}`;
}
