// The board during a turn and in analysis (issue 11, items 3-8), against
// the real server and engine in headless Chromium: the half-made Hop Chess
// turn, placements kept on a wrong click, the check line through a
// trampoline, the stuck Jumping King, wins by the weak square, the
// evaluation bar with the best-move arrow, and side lines.
//
// Positions were checked with the rules core:
//   springboard perft --variant V --fen F --depth 1

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { square, newLocalGame, playByApi, SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();

async function openGame(variant, fen, hash = "") {
  const { page, errors } = await openTab(env.browser);
  await newLocalGame(page, env.server.url, variant, fen);
  if (hash) {
    await page.check("#analysis-toggle");
    await page.waitForSelector("#analysis:not([hidden])");
  }
  return { page, errors };
}

// Waits for the analysis of the position after `ply` moves.
async function analysed(page, ply) {
  await page.waitForFunction(
    (p) => {
      const panel = document.getElementById("analysis");
      return panel.dataset.ply === p && document.getElementById("analysis-line").textContent !== "";
    },
    String(ply),
    { timeout: 20000 },
  );
}

test("analysis: a win by the weak square says so, at the depth that proves it (J3)", async () => {
  // Black: 1...Ra5 and 2...Ra1 enters White's weak square; nothing stops it.
  const { page, errors } = await openGame("jumpingking", "8/8/3k4/4r3/8/8/5K2/8[] b - 0 30", "#analysis");
  await analysed(page, 0);
  assert.equal(await page.locator("#analysis-score").textContent(), "Black wins by the weak square in 2");
  const depth = await page.locator("#analysis-depth").textContent();
  const d = Number(/^depth (\d+)$/.exec(depth)[1]);
  assert.ok(d >= 1 && d <= 6, depth);
  assert.deepEqual(errors, []);
  await page.close();
});

// Plays moves (long notation) through the API, as another tab of the same
// player would; the page follows through its socket.
async function centre(page, name) {
  const box = await square(page, name).boundingBox();
  return [box.x + box.width / 2, box.y + box.height / 2];
}

test("Hop Chess: the half-made turn while the trampoline square is chosen; a wrong square keeps the move (H2)", async () => {
  const { page, errors } = await openGame("hopchess");
  await playByApi(page, ["e2e4", "d7d5@a6"]);
  // The pawn is dragged from e4 and takes on d5: it stays there.
  const [x1, y1] = await centre(page, "e4");
  const [x2, y2] = await centre(page, "d5");
  await page.mouse.move(x1, y1);
  await page.mouse.down();
  await page.mouse.move((x1 + x2) / 2, (y1 + y2) / 2, { steps: 4 });
  await page.mouse.move(x2, y2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
  assert.equal(await square(page, "d5").getAttribute("data-piece"), "P");
  assert.equal(await square(page, "e4").getAttribute("data-piece"), null);
  assert.ok((await page.locator(".mark.place").count()) > 30);
  await page.screenshot({ path: join(SCREENSHOTS, "hop-half-made-turn.png") });
  // A square that is no placement (the own king's) changes nothing but a hint.
  await square(page, "e1").click();
  assert.match(await page.locator("#hint").textContent(), /^e1 is not a square for your trampoline this turn/);
  assert.match(await page.locator("#status").textContent(), /choose the trampoline square/);
  assert.equal(await square(page, "d5").getAttribute("data-piece"), "P");
  assert.ok((await page.locator(".mark.place").count()) > 30);
  assert.equal(await page.locator("#moves button").count(), 2);
  // A marked square places the trampoline: the whole turn is played.
  await square(page, "h3").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 3);
  assert.equal(await page.locator("#moves button").nth(2).getAttribute("title"), "e4d5@h3");
  assert.equal(await page.locator("#hint").textContent(), "");
  assert.equal(await square(page, "h3").locator(".trampoline-white").count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Hop Chess: a check through a trampoline shows its line and keeps the king's light square light (P8)", async () => {
  const { page, errors } = await openGame("hopchess");
  // 2.Ne5-c4 d6: the knight checks e8 by bouncing off White's trampoline d6.
  await playByApi(page, ["g1f3", "b7b6@e5", "f3e5c4@d6"]);
  await page.waitForSelector(".arrow.check");
  assert.equal(await page.locator(".arrow.check").getAttribute("data-points"), "c4 d6 e8");
  assert.ok(await square(page, "e8").evaluate((e) => e.classList.contains("check")));
  assert.ok(await square(page, "c4").evaluate((e) => e.classList.contains("checker")));
  assert.ok(await square(page, "d6").evaluate((e) => e.classList.contains("check-via")));
  // e8 is a light square: its colour stays the light one under the ring.
  const light = await square(page, "e8").evaluate((e) => getComputedStyle(e).backgroundColor);
  const other = await square(page, "g8").evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.equal(light, other);
  assert.equal(light, "rgb(240, 217, 181)");
  await page.screenshot({ path: join(SCREENSHOTS, "hop-check-through-trampoline.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Hoplit Chess: a Hoplit's check is drawn through its turning square (L2)", async () => {
  const { page, errors } = await openGame("hoplit", "7k/2h5/8/8/8/8/4P3/3RK3[] w - - 0 1");
  await page.waitForSelector(".arrow.check");
  assert.equal(await page.locator(".arrow.check").getAttribute("data-points"), "c7 e5 e1");
  assert.ok(await square(page, "e1").evaluate((e) => e.classList.contains("check")));
  assert.deepEqual(errors, []);
  await page.close();
});

test("Jumping King: a stuck king is named with the men that never enter; the weak squares are marked (J3, J6)", async () => {
  // White's king jumps no more with a rook and a bishop in reserve; Black's
  // king still jumps: White must pass.
  const { page, errors } = await openGame("jumpingking", "5k2/8/8/8/8/8/2K5/8[RBrrbbnnppp] w j 0 5");
  await page.waitForFunction(() => /stuck/.test(document.getElementById("status").textContent));
  assert.equal(
    await page.locator("#status").textContent(),
    "White's king is stuck: White must pass, while Black's king still jumps",
  );
  assert.equal(
    await page.locator('#notes .stuck[data-color="white"]').textContent(),
    "White's king is stuck: it can jump no more, so the men White holds in reserve (a rook and a bishop) will never enter the game.",
  );
  assert.equal(await page.locator("#pass").textContent(), "Pass (the king is stuck)");
  const weak = await page.locator(".sq.weak").evaluateAll((els) => els.map((e) => e.dataset.square + ":" + e.getAttribute("aria-label")).sort());
  assert.deepEqual(weak, ["a1:a1, empty, White's weak square", "f8:f8, black king, Black's weak square"]);
  await page.screenshot({ path: join(SCREENSHOTS, "jk-stuck-king.png"), fullPage: true });
  // The pass is played; Black's king jumps on.
  await page.click("#pass");
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  assert.equal(await page.locator("#moves button").first().getAttribute("title"), "0000");
  assert.deepEqual(errors, []);
  await page.close();
});

test("analysis: the evaluation bar and the best move's arrow through its trampoline (T3)", async () => {
  const { page, errors } = await openGame("trampoline", null, "#analysis");
  // White's trampoline on h5: Qd1-h5-f7 mates.
  await playByApi(page, ["e2e4", "e7e5", "f1c4", "b8c6", "@h5", "g8f6"]);
  await analysed(page, 6);
  assert.equal(await page.locator("#analysis-score").textContent(), "White mates in 1");
  await page.waitForSelector(".arrow.best");
  assert.equal(await page.locator(".arrow.best").getAttribute("data-points"), "d1 h5 f7");
  assert.equal(await page.locator(".arrow.best .turn").count(), 1);
  assert.equal(await page.locator("#evalbar").isVisible(), true);
  assert.equal(await page.locator("#evalbar").getAttribute("data-share"), "1.000");
  await page.screenshot({ path: join(SCREENSHOTS, "analysis-evalbar-bounce-arrow.png") });
  // An earlier position: its own analysis and arrow, the bar near even.
  await page.click("#nav-start");
  await analysed(page, 0);
  const share = Number(await page.locator("#evalbar").getAttribute("data-share"));
  assert.ok(share > 0.3 && share < 0.7, String(share));
  assert.notEqual(await page.locator(".arrow.best").getAttribute("data-points"), "d1 h5 f7");
  // Without the analysis: no bar, no arrow.
  await page.uncheck("#analysis-toggle");
  await page.waitForFunction(() => document.getElementById("evalbar").hidden);
  assert.equal(await page.locator(".arrow.best").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a side line from an earlier position, played without taking moves back", async () => {
  const { page, errors } = await openGame("chess", null, "#analysis");
  await playByApi(page, ["e2e4", "e7e5", "g1f3", "b8c6"]);
  // Back to the position after 1.e4 e5, and 2.Bc4 there instead of 2.Nf3.
  await page.locator('#moves button[data-ply="2"]').click();
  await page.waitForFunction(() => /^Viewing the position after 2 of 4 moves/.test(document.getElementById("status").textContent));
  await square(page, "f1").click();
  await square(page, "c4").click();
  await page.waitForSelector("#moves li.variation");
  assert.equal(await page.locator("#status").textContent(), "Side line after move 2 of the game: Black to move");
  assert.equal(await square(page, "c4").getAttribute("data-piece"), "B");
  // The analysis follows the side line's position.
  await analysed(page, 3);
  // On in the side line: 2...Nf6.
  await square(page, "g8").click();
  await square(page, "f6").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves li.variation button[data-line]").length === 2);
  assert.deepEqual(await page.locator("#moves li.variation button[data-line]").allTextContents(), ["Bc4", "Nf6"]);
  assert.match(await page.locator("#moves li.variation").textContent(), /^2\.Bc4Nf6/);
  await analysed(page, 4);
  await page.screenshot({ path: join(SCREENSHOTS, "side-line.png") });
  // The game kept its own moves.
  const plies = await page.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split("/")[2]}`)).json()).plies);
  assert.equal(plies, 4);
  assert.deepEqual(await page.locator('#moves button[data-ply]').allTextContents(), ["e4", "e5", "Nf3", "Nc6"]);
  // Back inside the side line, then to the game's last move.
  await page.click("#nav-back");
  await page.waitForFunction(() => document.querySelector('#moves li.variation button[data-line="1"]').classList.contains("current"));
  assert.equal(await square(page, "f6").getAttribute("data-piece"), null);
  await page.locator('#moves button[data-ply="4"]').click();
  await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  assert.equal(await square(page, "f3").getAttribute("data-piece"), "N");
  assert.equal(await square(page, "c6").getAttribute("data-piece"), "n");
  // The side line stays in the list until it is forgotten.
  assert.equal(await page.locator("#moves li.variation").count(), 1);
  await page.click("#moves li.variation button.close");
  await page.waitForFunction(() => !document.querySelector("#moves li.variation"));
  // A side line again; the moves before it are taken back: it goes.
  await page.locator('#moves button[data-ply="2"]').click();
  await page.waitForFunction(() => /^Viewing the position after 2 of 4/.test(document.getElementById("status").textContent));
  await square(page, "f1").click();
  await square(page, "c4").click();
  await page.waitForSelector("#moves li.variation");
  await page.locator('#moves button[data-ply="4"]').click();
  await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  for (const n of [3, 2, 1]) {
    await page.click("#takeback");
    await page.waitForFunction((k) => document.querySelectorAll("#moves button[data-ply]").length === k, n);
  }
  assert.equal(await page.locator("#moves li.variation").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
