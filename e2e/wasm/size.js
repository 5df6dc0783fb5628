// The download size of the page's WebAssembly build (crates/web/wasm/,
// written by scripts/wasm.sh): each file raw, gzip at level 9 and brotli
// at quality 11 (Node's zlib, the encoders a server or a CDN would use).
//   node e2e/wasm/size.js

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { repo } from "./load.js";

for (const name of ["springboard_bg.wasm", "springboard.js"]) {
  const bytes = readFileSync(join(repo, "crates", "web", "wasm", name));
  const gzip = gzipSync(bytes, { level: 9 }).length;
  const brotli = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;
  console.log(`${name.padEnd(20)} raw ${bytes.length}  gzip -9 ${gzip}  brotli 11 ${brotli}`);
}
