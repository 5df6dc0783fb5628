// The WebAssembly build's perft against the native one: every case of the
// rules core's perft suites (crates/rules/tests/perft/, the counts the
// native tests check) up to NODE_CAP nodes, in all five games, run in Node.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRules, repo } from "./load.js";

// The cases above this count are left to the native tests: the ones kept
// take about 3 s of CPU together (Node 20, 2 cores).
const NODE_CAP = 20_000_000;
const GAMES = ["chess", "hopchess", "trampoline", "jumpingking", "hoplit"];

function suite(game) {
  const text = readFileSync(join(repo, "crates", "rules", "tests", "perft", `${game}.perft`), "utf8");
  const cases = [];
  let fen = null;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const [key, ...rest] = line.split(" ");
    if (key === "epd") fen = rest.join(" ");
    else if (key === "perft" || key === "perft-slow") {
      cases.push({ fen, depth: Number(rest[0]), nodes: BigInt(rest[1]), line: i + 1 });
    } else throw new Error(`${game}.perft line ${i + 1}: unknown key ${key}`);
  });
  return cases;
}

const rules = await loadRules();

for (const game of GAMES) {
  test(`perft of ${game} in WebAssembly equals the suite's counts`, () => {
    const cases = suite(game).filter((c) => c.nodes <= BigInt(NODE_CAP));
    assert.ok(cases.length >= 3, `${game}: only ${cases.length} cases under the cap`);
    for (const c of cases) {
      const g = new rules.Game(game, c.fen);
      assert.equal(g.perft(c.depth), c.nodes, `${game}.perft line ${c.line}: ${c.fen} depth ${c.depth}`);
      g.free();
    }
  });
}
