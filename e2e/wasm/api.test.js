// The WebAssembly bindings as the page uses them: a game read from FEN and
// PGN, moves in long notation and SAN, the display data of the legal
// moves, refusals with the rules core's reasons, and a search that reports
// its progress and stops when told.

import { test } from "node:test";
import assert from "node:assert/strict";
import { loadRules } from "./load.js";

const rules = await loadRules();

test("a chess game: play, SAN, FEN and PGN back and forth", () => {
  const g = new rules.Game("chess");
  assert.equal(JSON.parse(g.legal()).length, 20);
  assert.equal(g.san("g1f3"), "Nf3");
  const played = JSON.parse(g.play("e2e4"));
  assert.deepEqual([played.uci, played.san, played.kind, played.from, played.to], ["e2e4", "e4", "double_step", "e2", "e4"]);
  g.play("e5");
  assert.equal(g.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  assert.deepEqual(JSON.parse(g.moves()), [
    { uci: "e2e4", san: "e4" },
    { uci: "e7e5", san: "e5" },
  ]);
  const back = rules.Game.fromPgn(g.pgn());
  assert.equal(back.fen(), g.fen());
  assert.equal(g.undo(), "e7e5");
  assert.throws(() => g.play("e2e5"), /e2e5/);
  assert.throws(() => new rules.Game("shogi"), /unknown game 'shogi'/);
  assert.throws(() => new rules.Game("chess", "not a fen"), Error);
});

test("a Hop Chess turn: the placement in the move, the half-steps with their changes (H2)", () => {
  const g = new rules.Game("hopchess");
  g.play("e2e4");
  const view = JSON.parse(g.view());
  assert.equal(view.turn, "black");
  assert.ok(view.legal.length > 20 && view.legal.every((m) => m.place !== null), "every Black turn places");
  assert.ok(view.steps.length > 0 && view.steps.every((s) => Array.isArray(s.changes)));
  assert.equal(view.last_move.uci, "e2e4");
  const m = JSON.parse(g.play("d7d5@a6"));
  assert.equal(m.place, "a6");
  assert.equal(JSON.parse(g.view()).trampolines.find((t) => t.owner === "black").square, "a6");
});

test("the search reports its progress (depth, score, line, nodes) and stops when told", () => {
  const g = new rules.Game("chess");
  const a = new rules.Analyser(8);
  const infos = [];
  const result = JSON.parse(
    a.search(g, JSON.stringify({ depth: 5 }), (text) => {
      infos.push(JSON.parse(text));
      return false;
    }),
  );
  assert.deepEqual(
    infos.map((i) => i.depth),
    [1, 2, 3, 4, 5],
  );
  for (const i of infos) {
    assert.ok(i.nodes > 0 && i.pv.length > 0 && i.pv.length === i.pv_san.length);
    assert.ok(typeof i.score.cp === "number" || typeof i.score.mate === "number");
  }
  assert.equal(result.depth, 5);
  assert.equal(result.best, infos[4].pv[0]);
  // No limit: it would search to the engine's depth cap; the callback's
  // `true` at the second report stops it (the stop is checked every few
  // thousand nodes: a short iteration or two may still end).
  let reports = 0;
  const stopped = JSON.parse(a.search(g, "{}", () => ++reports >= 2));
  assert.ok(reports >= 2 && reports <= 6, `${reports} reports`);
  assert.ok(stopped.depth >= 2 && stopped.depth <= 6, `depth ${stopped.depth}`);
  assert.ok(stopped.best);
  assert.throws(() => a.search(g, '{"depht": 3}', () => false), /bad search limits/);
});
