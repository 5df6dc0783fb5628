// The page's move input (crates/web/static/input.js) on legal move lists
// shaped like the API's answers for every variant's move shapes (RULINGS
// P9, N3-N6, H2-H3, J4, J9, L4, T2). The lists are written by hand here:
// the rules of those variants are not on this branch yet, so these tests
// check that the page enters every shape from the data alone.

import { test } from "node:test";
import assert from "node:assert/strict";
import { MoveInput, sourceOf } from "../../crates/web/static/input.js";

function mv(uci, kind, from, to, { via = [], role = null, place = null } = {}) {
  return { uci, san: uci, kind, from, to, via, role, place };
}

const sorted = (set) => [...set].sort();

test("a bounce is entered through the trampoline, a direct move directly (N3)", () => {
  const legal = [
    mv("c1f4", "normal", "c1", "f4"),
    mv("c1d2", "normal", "c1", "d2"),
    mv("c1e3g5", "normal", "c1", "g5", { via: ["e3"] }),
    mv("c1e3h6", "normal", "c1", "h6", { via: ["e3"] }),
    mv("c1e3c5a3", "normal", "c1", "a3", { via: ["e3", "c5"] }),
  ];
  const input = new MoveInput(legal);
  assert.ok(input.select("sq:c1"));
  let marks = input.marks();
  assert.deepEqual(sorted(marks.finals), ["d2", "f4"]);
  assert.deepEqual(sorted(marks.bounces), ["e3"]);
  assert.deepEqual(input.target("e3"), { type: "continue" });
  marks = input.marks();
  assert.deepEqual(sorted(marks.finals), ["g5", "h6"]);
  assert.deepEqual(sorted(marks.bounces), ["c5"]);
  assert.deepEqual(input.target("c5"), { type: "continue" });
  assert.deepEqual(sorted(input.marks().finals), ["a3"]);
  assert.deepEqual(input.target("a3"), { type: "play", move: legal[4] });
});

test("two moves to one square: the player chooses (P9 double step and bounce)", () => {
  const double = mv("d2d4", "double_step", "d2", "d4");
  const bounce = mv("d2d3d4", "normal", "d2", "d4", { via: ["d3"] });
  const input = new MoveInput([double, bounce]);
  input.select("sq:d2");
  const r = input.target("d4");
  assert.equal(r.type, "choose");
  assert.deepEqual(r.groups, [[double], [bounce]]);
  assert.deepEqual(input.chooseGroup(r.groups[1]), { type: "play", move: bounce });
  // Through the trampoline first, only the bounce is left.
  input.select("sq:d2");
  assert.deepEqual(input.target("d3"), { type: "continue" });
  assert.deepEqual(input.target("d4"), { type: "play", move: bounce });
});

test("Hop Chess turn: piece move, then the trampoline square (H2, N4)", () => {
  const legal = [
    mv("g8f6@d5", "normal", "g8", "f6", { place: "d5" }),
    mv("g8f6@e4", "normal", "g8", "f6", { place: "e4" }),
    mv("g8f6@c3", "normal", "g8", "f6", { place: "c3" }),
    mv("g8h6@c3", "normal", "g8", "h6", { place: "c3" }),
  ];
  const input = new MoveInput(legal);
  input.select("sq:g8");
  assert.deepEqual(sorted(input.marks().finals), ["f6", "h6"]);
  assert.deepEqual(input.target("f6"), { type: "place" });
  assert.deepEqual(sorted(input.marks().places), ["c3", "d5", "e4"]);
  assert.deepEqual(input.target("a1"), { type: "none" });
  // Keeping the trampoline on c3 is one click on its square.
  assert.deepEqual(input.target("c3"), { type: "play", move: legal[2] });
  // A piece move with a single placement needs no second step.
  input.select("sq:g8");
  assert.deepEqual(input.target("h6"), { type: "play", move: legal[3] });
});

test("Hop Chess: White's first turn has no placement (H3)", () => {
  const m = mv("e2e4", "double_step", "e2", "e4");
  const input = new MoveInput([m]);
  input.select("sq:e2");
  assert.deepEqual(input.target("e4"), { type: "play", move: m });
});

test("promotion picker, and Jumping King's optional promotion (J9)", () => {
  const roles = ["q", "r", "b", "n", "h"];
  const promos = roles.map((r) => mv("b7b8" + r, "normal", "b7", "b8", { role: r }));
  let input = new MoveInput(promos);
  input.select("sq:b7");
  let r = input.target("b8");
  assert.equal(r.type, "choose");
  assert.deepEqual(r.groups.map((g) => g[0].role), roles);
  const optional = [
    mv("c6c7", "normal", "c6", "c7"),
    mv("c6c7r", "normal", "c6", "c7", { role: "r" }),
    mv("c6c7b", "normal", "c6", "c7", { role: "b" }),
  ];
  input = new MoveInput(optional);
  input.select("sq:c6");
  r = input.target("c7");
  assert.deepEqual(r.groups.map((g) => g[0].role), [null, "r", "b"]);
  assert.deepEqual(input.chooseGroup(r.groups[0]), { type: "play", move: optional[0] });
});

test("Jumping King jump with the placed man (J4, N6) and forced pass", () => {
  const legal = ["b", "n", "r", "p"].map((r) => mv("c2e3" + r, "jump", "c2", "e3", { role: r }));
  legal.push(mv("c2a3b", "jump", "c2", "a3", { role: "b" }));
  const input = new MoveInput(legal);
  input.select("sq:c2");
  assert.deepEqual(sorted(input.marks().finals), ["a3", "e3"]);
  const r = input.target("e3");
  assert.equal(r.type, "choose");
  assert.deepEqual(r.groups.map((g) => g[0].uci), ["c2e3b", "c2e3n", "c2e3r", "c2e3p"]);
  const pass = mv("0000", "pass", null, null);
  const stuck = new MoveInput([pass]);
  assert.equal(sourceOf(pass), "pass");
  assert.ok(stuck.hasSource("pass"));
  assert.ok(!stuck.hasSource("sq:a1"));
});

test("Hoplit drop from the reserve (L4) and trampoline moves (T2, N5)", () => {
  const drops = [mv("H@d1", "drop", null, "d1", { role: "h" }), mv("H@e1", "drop", null, "e1", { role: "h" })];
  const tramps = [mv("@e5", "trampoline", null, "e5"), mv("@d4", "trampoline", null, "d4")];
  const quiet = mv("g1f3", "normal", "g1", "f3");
  const input = new MoveInput([...drops, ...tramps, quiet]);
  assert.ok(input.select("drop:h"));
  assert.deepEqual(sorted(input.marks().finals), ["d1", "e1"]);
  assert.deepEqual(input.target("e1"), { type: "play", move: drops[1] });
  assert.ok(input.select("trampoline"));
  assert.deepEqual(sorted(input.marks().finals), ["d4", "e5"]);
  assert.deepEqual(input.target("e5"), { type: "play", move: tramps[0] });
  assert.ok(!input.select("drop:q"));
  assert.equal(input.source, null);
});
