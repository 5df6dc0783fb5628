// The search bench (`springboard bench`'s positions and depths, read from
// crates/springboard/src/bench.rs) in the WebAssembly build, one thread in
// Node: prints each position and the total nodes and nodes per second, to
// set beside the native `springboard bench`. The node total is the bench
// signature: it must equal the native one.
//   node e2e/wasm/bench.js

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRules, repo } from "./load.js";

const src = readFileSync(join(repo, "crates", "springboard", "src", "bench.rs"), "utf8");
const positions = src.slice(src.indexOf("const SEARCH_POSITIONS"), src.indexOf("/// The search bench depth of a game."));
const names = { Chess: "chess", HopChess: "hopchess", Trampoline: "trampoline", JumpingKing: "jumpingking", Hoplit: "hoplit" };
const depthOf = (c) => Number(new RegExp(`const ${c}: u32 = (\\d+);`).exec(src)[1]);
const depths = {
  Chess: depthOf("SEARCH_DEPTH"),
  Hoplit: depthOf("HOPLIT_DEPTH"),
  JumpingKing: depthOf("JUMPINGKING_DEPTH"),
  Trampoline: depthOf("TRAMPOLINE_DEPTH"),
  HopChess: depthOf("HOPCHESS_DEPTH"),
};

const rules = await loadRules();
let nodes = 0;
let ms = 0;
for (const [, variant, fen] of positions.matchAll(/Variant::(\w+),\s*"([^"]+)"/g)) {
  const g = new rules.Game(names[variant], fen);
  const a = new rules.Analyser(16);
  const start = performance.now();
  const r = JSON.parse(a.search(g, JSON.stringify({ depth: depths[variant] }), () => false));
  const took = performance.now() - start;
  nodes += r.nodes;
  ms += took;
  console.log(`${names[variant].padEnd(12)} depth ${depths[variant]}  best ${r.best}  nodes ${r.nodes}  ${(took / 1000).toFixed(3)} s  ${Math.round((r.nodes / took) * 1000)} nps`);
  a.free();
  g.free();
}
console.log(`Total time (ms) : ${Math.round(ms)}`);
console.log(`Nodes searched  : ${nodes}`);
console.log(`Nodes/second    : ${Math.round((nodes / ms) * 1000)}`);
