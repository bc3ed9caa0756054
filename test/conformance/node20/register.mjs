// Lets the conformance CLI start on Node 20. The CLI imports `globSync` from `node:fs`
// (Node 22+; it uses it only to find `checks.json` files). On Node 20 a resolve hook hands
// the CLI's own modules a `node:fs` that adds a small `globSync`; on Node 22+ nothing is done.
// Usage: node --import ./register.mjs <conformance>/dist/index.js ...
import * as fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") register("./resolve-fs.mjs", import.meta.url);
