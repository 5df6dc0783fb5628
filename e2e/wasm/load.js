// Loads the page's WebAssembly build (crates/web/wasm/, written by
// scripts/wasm.sh) into Node, as the page loads it into the browser.

import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dir = join(repo, "crates", "web", "wasm");

export async function loadRules() {
  const mod = await import(pathToFileURL(join(dir, "springboard.js")).href);
  mod.initSync({ module: readFileSync(join(dir, "springboard_bg.wasm")) });
  return mod;
}
