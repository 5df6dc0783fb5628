// The page against fixed server answers shaped like the API's views of the
// four variants (board mask with holes, trampolines, reserves, bounces, Hop
// Chess placements, Jumping King placements, Hoplit drops): the API is
// answered here, in the browser, with hand-written views in the server's
// JSON format, and the test checks what the page draws and which
// long-notation move it sends. The same moves against the real server,
// in whole games, are in variants.test.js.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { drag, square, SCREENSHOTS, setUp } from "./harness.js";

const env = setUp();

const FILES = "abcdefgh";

// The 64 squares of a view from a FEN board field, the existing squares and
// the trampolines ({square: owner}).
function squares(placement, exists, trampolines = {}) {
  const grid = {};
  placement.split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else grid[FILES[file++] + (8 - i)] = ch;
    }
  });
  const out = [];
  for (let rank = 1; rank <= 8; rank++) {
    for (let f = 0; f < 8; f++) {
      const name = FILES[f] + rank;
      out.push({ name, exists: exists(name), piece: grid[name] || null, trampoline: trampolines[name] || null });
    }
  }
  return out;
}

function mv(uci, kind, from, to, { via = [], role = null, place = null, san = uci } = {}) {
  return { uci, san, kind, from, to, via, role, place };
}

function view(fields) {
  return {
    id: 1,
    fen: "",
    start_fen: "",
    turn: "white",
    fullmove: 1,
    plies: 0,
    ply: 0,
    trampolines: [
      { owner: "white", square: null },
      { owner: "black", square: null },
    ],
    trampolines_in_play: false,
    reserves: [],
    check: null,
    last_move: null,
    history: [],
    outcome: null,
    legal: [],
    version: 1,
    mode: "local",
    you: "both",
    status: "playing",
    seats: { white: { kind: "human", taken: true, name: null }, black: { kind: "human", taken: true, name: null } },
    engine: null,
    clock: null,
    result: null,
    reason: null,
    offers: { draw: null, takeback: null, rematch: null },
    rematch: null,
    engine_thinking: false,
    ...fields,
  };
}

// Opens the page with the API answered by `state` (for creation and reads)
// and records the moves the page posts, answering them with `after`.
// Opens the page with the API answered by `state` (for creation and reads)
// and records the moves the page posts, answering them with `after` (its
// version one higher). The page's socket finds no game on the real server
// and the page reads the game again now and then: it keeps the newer view.
async function openMocked(variant, title, state, after, engine = null, create = "#create-local") {
  const page = await env.browser.context.newPage();
  const errors = [];
  const posted = [];
  const created = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.route("**/api/**", async (route) => {
    const url = new URL(route.request().url());
    const json = (body) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
    if (url.pathname === "/api/info") {
      return json({ variants: [{ name: variant, title, start_fen: "" }], engine: engine && engine.info });
    }
    if (url.pathname.endsWith("/engine")) {
      posted.push("engine " + route.request().postData());
      return json(engine.reply);
    }
    if (url.pathname.endsWith("/move")) {
      posted.push(JSON.parse(route.request().postData()).move);
      return json({ ...after, version: Math.max(after.version || 1, (state.version || 1) + 1) });
    }
    if (url.pathname === "/api/games" && route.request().method() === "POST") {
      created.push(JSON.parse(route.request().postData()));
    }
    return json(state);
  });
  await page.goto(env.server.url);
  await page.click(create);
  await page.waitForSelector("#board .sq");
  return { page, errors, posted, created };
}

const jkExists = (name) => {
  const f = FILES.indexOf(name[0]);
  const r = Number(name[1]);
  return (f <= 5 && r >= 2 && r <= 7) || name === "a1" || name === "f8";
};

test("Jumping King: 38 squares, men in reserve, the placement picker (J1, J4)", async () => {
  const state = view({
    variant: "jumpingking",
    title: "The Weak Square of the Jumping King",
    squares: squares("8/3k4/8/8/8/8/1BK5/8", jkExists),
    reserves: [
      { color: "white", role: "n", count: 2 },
      { color: "white", role: "b", count: 1 },
      { color: "white", role: "r", count: 2 },
      { color: "white", role: "p", count: 3 },
      { color: "black", role: "n", count: 2 },
      { color: "black", role: "b", count: 2 },
      { color: "black", role: "r", count: 2 },
      { color: "black", role: "p", count: 3 },
    ],
    last_move: mv("e3d7", "jump", "e3", "d7"),
    legal: [
      ...["n", "b", "r", "p"].map((r) => mv("c2e3" + r, "jump", "c2", "e3", { role: r })),
      ...["n", "r", "p"].map((r) => mv("c2a3" + r, "jump", "c2", "a3", { role: r })),
    ],
  });
  const after = { ...state, squares: squares("8/3k4/8/8/4K3/8/1BN5/8", jkExists), legal: [], turn: "black" };
  const { page, errors, posted } = await openMocked("jumpingking", state.title, state, after);
  // Files g and h, with no square, are not drawn: 6x8 cells, 10 of them
  // holes (b1-f1, a8-e8) beside the 38 squares (J1).
  assert.equal(await page.locator("#board .sq.hole").count(), 10);
  assert.equal(await page.locator("#board .sq:not(.hole)").count(), 38);
  assert.equal(await page.locator("#reserve-bottom .token").count(), 4);
  assert.equal(await page.locator("#reserve-top .token").count(), 4);
  assert.deepEqual(await page.locator(".coord.file").allTextContents(), ["a", "b", "c", "d", "e", "f"]);
  assert.deepEqual(await page.locator(".coord.rank").allTextContents(), ["8", "7", "6", "5", "4", "3", "2", "1"]);
  await square(page, "c2").click();
  const targets = await page.locator(".sq.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ["a3", "e3"]);
  await page.screenshot({ path: join(SCREENSHOTS, "jumpingking.png") });
  await square(page, "e3").click();
  await page.waitForSelector("#chooser:not([hidden])");
  assert.equal(await page.locator("#chooser-title").textContent(), "Which man does the king leave behind?");
  await page.click('#chooser-options button[data-role="n"]');
  await page.waitForFunction(() => document.querySelector('[data-square="c2"]').dataset.piece === "N");
  assert.deepEqual(posted, ["c2e3n"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Hop Chess: trampolines as checkers, a bounce, then keeping the trampoline (P2, H2)", async () => {
  const tramps = { d4: "white", f6: "black" };
  const state = view({
    variant: "hopchess",
    title: "Hop Chess",
    turn: "black",
    squares: squares("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", () => true, tramps),
    trampolines: [
      { owner: "white", square: "d4" },
      { owner: "black", square: "f6" },
    ],
    trampolines_in_play: true,
    legal: [
      mv("g8h6@f6", "normal", "g8", "h6", { place: "f6" }),
      mv("g8h6@a6", "normal", "g8", "h6", { place: "a6" }),
      mv("g8f6d5@f6", "normal", "g8", "d5", { via: ["f6"], place: "f6" }),
      mv("g8f6d5@a6", "normal", "g8", "d5", { via: ["f6"], place: "a6" }),
      mv("g8f6g4@f6", "normal", "g8", "g4", { via: ["f6"], place: "f6" }),
    ],
  });
  const { page, errors, posted } = await openMocked("hopchess", "Hop Chess", state, state);
  assert.equal(await page.locator("#board .trampoline-white").count(), 1);
  assert.equal(await page.locator("#board .trampoline-black").count(), 1);
  assert.equal(await square(page, "d4").locator(".trampoline-white").count(), 1);
  await square(page, "g8").click();
  assert.equal(await square(page, "f6").locator(".mark.bounce").count(), 1);
  assert.equal(await square(page, "h6").locator(".mark.move").count(), 1);
  await square(page, "f6").click();
  const finals = await page.locator(".mark.move").evaluateAll((els) => els.map((e) => e.parentElement.dataset.square).sort());
  assert.deepEqual(finals, ["d5", "g4"]);
  await square(page, "d5").click();
  assert.match(await page.locator("#status").textContent(), /choose the trampoline square/);
  assert.equal(await square(page, "f6").locator(".mark.keep").count(), 1);
  assert.equal(await square(page, "a6").locator(".mark.place").count(), 1);
  await page.screenshot({ path: join(SCREENSHOTS, "hopchess.png") });
  assert.equal(await page.locator("#keep").isVisible(), true);
  await page.click("#keep");
  await page.waitForFunction(() => document.getElementById("keep").hidden);
  assert.deepEqual(posted, ["g8f6d5@f6"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Hoplit Chess: the Hoplit in reserve is dragged onto the board (L4)", async () => {
  const state = view({
    variant: "hoplit",
    title: "Hoplit Chess",
    squares: squares("r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/R1BQKB1R", () => true),
    reserves: [
      { color: "white", role: "h", count: 1 },
      { color: "black", role: "h", count: 1 },
    ],
    legal: [mv("H@b1", "drop", null, "b1", { role: "h", san: "H@b1" }), mv("H@g1", "drop", null, "g1", { role: "h" })],
  });
  const after = {
    ...state,
    turn: "black",
    squares: squares("r1bqkbnr/pppppppp/2n5/8/8/1P3N2/P1PPPPPP/RHBQKB1R", () => true),
    reserves: [{ color: "black", role: "h", count: 1 }],
    legal: [],
    history: [{ ply: 1, number: 1, color: "white", uci: "H@b1", san: "H@b1" }],
    plies: 1,
    ply: 1,
    last_move: mv("H@b1", "drop", null, "b1", { role: "h" }),
  };
  const { page, errors, posted } = await openMocked("hoplit", "Hoplit Chess", state, after);
  const token = page.locator('#reserve-bottom .token[data-source="drop:h"]');
  assert.equal(await token.isEnabled(), true);
  assert.equal(await page.locator('#reserve-top .token[data-source="drop:h"]').isEnabled(), false);
  await drag(page, token, square(page, "b1"));
  await page.waitForFunction(() => document.querySelector('[data-square="b1"]').dataset.piece === "H");
  assert.deepEqual(posted, ["H@b1"]);
  assert.equal(await page.locator("#reserve-bottom .token").count(), 0);
  await page.screenshot({ path: join(SCREENSHOTS, "hoplit.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Trampoline Chess: the trampoline off the board is picked and dropped (T2)", async () => {
  const state = view({
    variant: "trampoline",
    title: "Trampoline Chess",
    squares: squares("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", () => true),
    trampolines_in_play: true,
    legal: [mv("@e5", "trampoline", null, "e5", { san: "Te5" }), mv("@d4", "trampoline", null, "d4"), mv("g1f3", "normal", "g1", "f3")],
  });
  const { page, errors, posted } = await openMocked("trampoline", "Trampoline Chess", state, state);
  assert.equal(await page.locator('#reserve-top .token[data-source="trampoline"]').count(), 1);
  await page.locator('#reserve-bottom .token[data-source="trampoline"]').click();
  const targets = await page.locator(".sq.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ["d4", "e5"]);
  await square(page, "e5").click();
  await page.waitForFunction(() => document.querySelectorAll(".sq.target").length === 0);
  assert.deepEqual(posted, ["@e5"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("against an engine: the server plays the engine's moves, the page shows it thinking", async () => {
  const seats = {
    white: { kind: "human", taken: true, name: null },
    black: { kind: "engine", taken: true, name: "test engine (level 2)" },
  };
  const start = view({
    variant: "chess",
    title: "Chess",
    mode: "engine",
    you: "white",
    seats,
    engine: { color: "black", level: 2 },
    squares: squares("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", () => true),
    legal: [mv("e2e4", "double_step", "e2", "e4", { san: "e4" })],
  });
  const afterUser = view({
    ...start,
    version: 2,
    turn: "black",
    engine_thinking: true,
    squares: squares("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR", () => true),
    plies: 1,
    ply: 1,
    history: [{ ply: 1, number: 1, color: "white", uci: "e2e4", san: "e4" }],
    legal: [mv("e7e5", "double_step", "e7", "e5", { san: "e5" })],
  });
  const engine = { info: { name: "test engine", max_level: 3 }, reply: null };
  const { page, errors, posted, created } = await openMocked("chess", "Chess", start, afterUser, engine, "#create-engine");
  assert.equal(await page.locator(".player#player-top .name").textContent(), "test engine (level 2)");
  await square(page, "e2").click();
  await square(page, "e4").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  // The engine is thinking: its side cannot be moved by the player, and the
  // page never asks the engine itself.
  assert.match(await page.locator("#status").textContent(), /Black to move - the engine is thinking/);
  await square(page, "e7").click();
  assert.equal(await page.locator(".sq.target").count(), 0);
  assert.deepEqual(posted, ["e2e4"]);
  assert.deepEqual(created, [{ variant: "chess", mode: "engine", color: "white", level: 1, clock: null }]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Trampoline Chess: the trampoline on the board is dragged to its new square (T2)", async () => {
  const state = view({
    variant: "trampoline",
    title: "Trampoline Chess",
    squares: squares("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", () => true, { d4: "white" }),
    trampolines: [
      { owner: "white", square: "d4" },
      { owner: "black", square: null },
    ],
    trampolines_in_play: true,
    legal: [mv("@e5", "trampoline", null, "e5"), mv("@c5", "trampoline", null, "c5")],
  });
  const { page, errors, posted } = await openMocked("trampoline", "Trampoline Chess", state, state);
  assert.equal(await page.locator('#reserve-bottom .token[data-source="trampoline"]').count(), 0);
  await drag(page, square(page, "d4"), square(page, "c5"));
  await page.waitForFunction(() => document.querySelectorAll(".sq.target").length === 0);
  assert.deepEqual(posted, ["@c5"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("two moves to one square: the page asks which (P9), and a forced pass (J6)", async () => {
  const state = view({
    variant: "hopchess",
    title: "Hop Chess",
    squares: squares("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", () => true, { d3: "black" }),
    trampolines: [
      { owner: "white", square: null },
      { owner: "black", square: "d3" },
    ],
    trampolines_in_play: true,
    legal: [
      mv("d2d4@e4", "double_step", "d2", "d4", { place: "e4" }),
      mv("d2d3d4@e4", "normal", "d2", "d4", { via: ["d3"], place: "e4" }),
    ],
  });
  const { page, errors, posted } = await openMocked("hopchess", "Hop Chess", state, state);
  await square(page, "d2").click();
  await square(page, "d4").click();
  await page.waitForSelector("#chooser:not([hidden])");
  assert.equal(await page.locator("#chooser-title").textContent(), "Which move?");
  assert.deepEqual(await page.locator("#chooser-options button").allTextContents(), ["double step", "bounce via d3"]);
  await page.locator("#chooser-options button", { hasText: "bounce via d3" }).click();
  // One placement only: the turn is complete.
  await page.waitForFunction(() => document.getElementById("chooser").hidden);
  await page.waitForFunction(() => document.querySelectorAll(".sq.target").length === 0);
  assert.deepEqual(posted, ["d2d3d4@e4"]);
  await page.close();

  const stuck = view({
    variant: "jumpingking",
    title: "The Weak Square of the Jumping King",
    squares: squares("5k2/8/8/8/8/8/8/K7", jkExists),
    legal: [mv("0000", "pass", null, null, { san: "--" })],
  });
  const second = await openMocked("jumpingking", stuck.title, stuck, stuck);
  assert.equal(await second.page.locator("#pass").isVisible(), true);
  const answered = second.page.waitForResponse((r) => r.url().endsWith("/move"));
  await second.page.click("#pass");
  await answered;
  assert.deepEqual(second.posted, ["0000"]);
  assert.deepEqual([...errors, ...second.errors], []);
  await second.page.close();
});
