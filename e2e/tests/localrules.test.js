// The page with the rules core in the browser (crates/wasm, built by
// scripts/wasm.sh): a Hop Chess game clicked through while the server's
// legal move lists are withheld (every game view's `legal` and `steps`
// emptied, the legal-move endpoint failed), so that the highlighted
// moves, the half-made turn and the board after each move can only come
// from the WebAssembly rules core; the server still plays every move.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRules, repo } from "../wasm/load.js";
import { newLocalGame, openTab, setUp, square } from "./harness.js";

const env = setUp();
const SHOTS = process.env.SPRINGBOARD_SHOTS || "";

// Clicks a Hop Chess turn ("g1f3@d4": piece, target, then the trampoline
// square) and waits until the server's move list has it.
async function clickTurn(page, turn) {
  const before = await page.locator("#moves button").count();
  const [move, place] = turn.split("@");
  await square(page, move.slice(0, 2)).click();
  // The picked piece's moves are marked, from the browser's rules core.
  assert.ok((await page.locator(".mark.move, .mark.capture").count()) > 0, `${turn}: no move marked`);
  if (place) await square(page, move.slice(2, 4)).click();
  // The server's answer to the move, before the next turn is entered.
  const answered = page.waitForResponse((r) => /\/move$/.test(r.url()));
  if (place) {
    await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
    assert.ok((await page.locator(".mark.place").count()) > 10, `${turn}: no placement marked`);
    await square(page, place).click();
  } else {
    await square(page, move.slice(2, 4)).click();
  }
  await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, before + 1);
  await answered;
}

test("Hop Chess clicked through with the server's legal move lists withheld", async () => {
  const { page, errors } = await openTab(env.browser);
  let withheld = 0;
  let asked = 0;
  await page.route(/\/api\/games\/\w+\/moves(\?.*)?$/, (route) => {
    asked++;
    return route.abort();
  });
  // Every game view loses its lists; the first move's answer comes late,
  // so the board after it is seen before the server's view.
  let slowed = false;
  await page.route(/\/api\/games(\/\w+(\/\w+)?)?(\?.*)?$/, async (route) => {
    if (route.request().url().endsWith("/ws")) return route.continue();
    if (/\/move$/.test(route.request().url()) && !slowed) {
      slowed = true;
      await new Promise((r) => setTimeout(r, 1500));
    }
    const resp = await route.fetch();
    let body = await resp.text();
    try {
      const v = JSON.parse(body);
      if (v && typeof v === "object" && Array.isArray(v.legal)) {
        if (v.legal.length > 0) withheld++;
        v.legal = [];
        v.steps = [];
        body = JSON.stringify(v);
      }
    } catch (_) {
      // not JSON: passed on as it is
    }
    await route.fulfill({ response: resp, body });
  });
  await newLocalGame(page, env.server.url, "hopchess");
  assert.equal(await page.evaluate(async () => (await fetch("/static/wasm.json")).ok), true, "the server has the WebAssembly build");

  // White's first turn has no placement (H3); the pawn stands on e4
  // before the server answers.
  await square(page, "e2").click();
  await square(page, "e4").click();
  await page.waitForFunction(() => document.querySelector('[data-square="e4"]').getAttribute("data-piece") === "P");
  assert.equal(await page.locator("#moves button").count(), 1, "the move is listed at once, with its SAN");
  assert.equal(await page.locator("#moves button").first().textContent(), "e4");
  await page.waitForFunction(() => /Black to move/.test(document.getElementById("status").textContent));
  await page.waitForTimeout(1700);

  for (const turn of ["e7e5@e6", "g1f3@d4", "b8c6@d5", "f1c4@c3"]) await clickTurn(page, turn);
  const titles = await page.locator("#moves button").evaluateAll((bs) => bs.map((b) => b.getAttribute("title")));
  assert.deepEqual(titles, ["e2e4", "e7e5@e6", "g1f3@d4", "b8c6@d5", "f1c4@c3"]);
  assert.equal(await square(page, "c3").locator(".trampoline-white").count(), 1);
  assert.equal(await square(page, "d5").locator(".trampoline-black").count(), 1);
  // The server's lists were there to withhold, and none reached the page.
  assert.ok(withheld >= 5, `withheld ${withheld} lists`);
  assert.equal(asked, 0);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/hopchess-local-rules.png` });
  }
  assert.deepEqual(errors, []);
  await page.close();
});

// The bench's positions of the five games (crates/springboard/src/bench.rs).
function benchPositions() {
  const src = readFileSync(join(repo, "crates", "springboard", "src", "bench.rs"), "utf8");
  const list = src.slice(src.indexOf("const SEARCH_POSITIONS"), src.indexOf("/// The search bench depth of a game."));
  const names = { Chess: "chess", HopChess: "hopchess", Trampoline: "trampoline", JumpingKing: "jumpingking", Hoplit: "hoplit" };
  return [...list.matchAll(/Variant::(\w+),\s*"([^"]+)"/g)].map(([, v, fen]) => ({ variant: names[v], fen }));
}

test("the WebAssembly build's legal moves and half-steps are the server's, in every game", async () => {
  const rules = await loadRules();
  const { page, errors } = await openTab(env.browser);
  await page.goto(env.server.url);
  // At most three a game: the server takes 20 new games a minute.
  const positions = benchPositions().filter((p, i, all) => all.slice(0, i).filter((q) => q.variant === p.variant).length < 3);
  assert.equal(new Set(positions.map((p) => p.variant)).size, 5);
  for (const { variant, fen } of positions) {
    const view = await page.evaluate(
      async (req) => (await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req) })).json(),
      { variant, fen },
    );
    assert.ok(view.legal.length > 0, `${variant} ${fen}: ${JSON.stringify(view).slice(0, 200)}`);
    const g = new rules.Game(variant, fen);
    const local = JSON.parse(g.view());
    g.free();
    assert.equal(local.fen, view.fen);
    assert.deepEqual(local.legal, view.legal, `${variant} ${fen}: legal moves`);
    assert.deepEqual(local.steps, view.steps, `${variant} ${fen}: half-steps`);
    for (const f of ["squares", "trampolines", "reserves", "check", "check_lines", "weak_squares", "stuck", "jumping"]) {
      assert.deepEqual(local[f], view[f], `${variant} ${fen}: ${f}`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
