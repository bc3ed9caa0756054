// Module-resolve hook: `fs` / `node:fs` imported from inside the conformance package
// resolves to `fs-with-glob.mjs`; every other import is left alone.
const replacement = new URL("./fs-with-glob.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromConformance = context.parentURL?.includes("/@modelcontextprotocol/conformance/") ?? false;
  if (fromConformance && (specifier === "fs" || specifier === "node:fs")) return { url: replacement, shortCircuit: true };
  return nextResolve(specifier, context);
}
