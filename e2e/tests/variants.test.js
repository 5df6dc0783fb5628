// Short games of every variant against the real server, two players at one
// screen, every move entered by clicks (squares, reserve tokens, the
// placement and promotion picker), each ending with the result message;
// and the analysis mode against the real engine.
//
// The games were found and checked with the rules core:
//   springboard perft --variant V [--fen F] --moves "..." --depth 1
// gives 0 moves after each last move (mate, or the weak square entered).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { square, newLocalGame, SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();

// A new game of `variant` (from a position text if `fen` is given).
async function openGame(variant, fen) {
  const { page, errors } = await openTab(env.browser);
  await newLocalGame(page, env.server.url, variant, fen);
  await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  return { page, errors };
}

// Plays one move by its clicks and checks that the server played `uci`.
// A step is a square name, {token: key} for a reserve token (a drop, the
// trampoline off the board), or {choose: uci} for the picker.
async function clickMove(page, uci, steps) {
  const before = await page.locator("#moves button").count();
  for (const step of steps) {
    if (typeof step === "string") await square(page, step).click();
    else if (step.token) await page.click(`.token.active[data-source="${step.token}"]`);
    else if (step.choose) {
      await page.waitForSelector("#chooser:not([hidden])");
      await page.click(`#chooser-options button[data-uci="${step.choose}"]`);
    }
  }
  await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, before + 1);
  const played = await page.locator("#moves button").nth(before).getAttribute("title");
  assert.equal(played, uci);
}

async function resultMessage(page) {
  await page.waitForSelector("#status.over");
  return page.locator("#status").textContent();
}

test("Hop Chess: placements and a bounce off the enemy trampoline that mates (H2, H3, H4, P8)", async () => {
  const { page, errors } = await openGame("hopchess");
  // White's first turn is a piece move only (H3).
  await clickMove(page, "g1f3", ["g1", "f3"]);
  // Black moves, then places its trampoline on e5 (H2).
  await square(page, "b7").click();
  await square(page, "b6").click();
  assert.match(await page.locator("#status").textContent(), /choose the trampoline square/);
  assert.ok((await page.locator(".mark.place").count()) > 30);
  await clickMove(page, "b7b6@e5", ["e5"]);
  assert.equal(await square(page, "e5").locator(".trampoline-black").count(), 1);
  // The knight bounces off Black's trampoline (e5) to c4, and White places
  // its trampoline on d6: through it the knight attacks e8 (P8), mate.
  await square(page, "f3").click();
  assert.equal(await square(page, "e5").locator(".mark.bounce").count(), 1);
  await square(page, "e5").click();
  await square(page, "c4").click();
  await clickMove(page, "f3e5c4@d6", ["d6"]);
  assert.equal(await resultMessage(page), "Game over: White wins by checkmate (1-0)");
  assert.equal(await square(page, "c4").getAttribute("data-piece"), "N");
  assert.equal(await square(page, "d6").locator(".trampoline-white").count(), 1);
  assert.equal(await square(page, "e5").locator(".trampoline-black").count(), 1);
  assert.ok(await square(page, "e8").evaluate((e) => e.classList.contains("check")));
  await page.screenshot({ path: join(SCREENSHOTS, "real-hopchess.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Trampoline Chess: a trampoline drop, then the queen bounces off it to mate (T2, T3, T4)", async () => {
  const { page, errors } = await openGame("trampoline");
  await clickMove(page, "e2e4", ["e2", "e4"]);
  await clickMove(page, "e7e5", ["e7", "e5"]);
  await clickMove(page, "f1c4", ["f1", "c4"]);
  await clickMove(page, "b8c6", ["b8", "c6"]);
  // The trampoline off the board is a token beside the board: drop it on h5.
  assert.equal(await page.locator('#reserve-bottom .token[data-source="trampoline"]').count(), 1);
  await clickMove(page, "@h5", [{ token: "trampoline" }, "h5"]);
  assert.equal(await square(page, "h5").locator(".trampoline-white").count(), 1);
  assert.equal(await page.locator('#reserve-bottom .token[data-source="trampoline"]').count(), 0);
  await clickMove(page, "g8f6", ["g8", "f6"]);
  // Qd1 onto the trampoline h5, on to f7: mate.
  await clickMove(page, "d1h5f7", ["d1", "h5", "f7"]);
  assert.equal(await resultMessage(page), "Game over: White wins by checkmate (1-0)");
  assert.equal(await square(page, "f7").getAttribute("data-piece"), "Q");
  assert.equal(await square(page, "h5").locator(".trampoline-white").count(), 1);
  const sans = await page.locator("#moves button").allTextContents();
  assert.equal(sans.length, 7);
  assert.match(sans[4], /^T/);
  await page.screenshot({ path: join(SCREENSHOTS, "real-trampoline.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Hoplit Chess: a drop pushes the pawn, the Hoplit captures over a screen, then mate (L2, L4)", async () => {
  const { page, errors } = await openGame("hoplit");
  await clickMove(page, "e2e4", ["e2", "e4"]);
  await clickMove(page, "a7a6", ["a7", "a6"]);
  await clickMove(page, "f1c4", ["f1", "c4"]);
  await clickMove(page, "a6a5", ["a6", "a5"]);
  await clickMove(page, "d1h5", ["d1", "h5"]);
  await clickMove(page, "a5a4", ["a5", "a4"]);
  // The Hoplit in reserve, dropped on d1: the d-pawn steps to d3 (L4).
  await clickMove(page, "H@d1", [{ token: "drop:h" }, "d1"]);
  assert.equal(await square(page, "d1").getAttribute("data-piece"), "H");
  assert.equal(await square(page, "d3").getAttribute("data-piece"), "P");
  assert.equal(await square(page, "d2").getAttribute("data-piece"), null);
  assert.equal(await square(page, "d1").locator("svg.piece circle").count(), 1);
  await page.screenshot({ path: join(SCREENSHOTS, "real-hoplit-drop.png") });
  await clickMove(page, "a4a3", ["a4", "a3"]);
  // d1-e2 diagonally, then north over the screen e4 and onto e7 (L2).
  await square(page, "d1").click();
  const targets = await page.locator(".sq.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ["e5", "e6", "e7", "f8", "g8"]);
  await clickMove(page, "d1e7", ["e7"]);
  assert.equal(await square(page, "e7").getAttribute("data-piece"), "H");
  await clickMove(page, "b7b6", ["b7", "b6"]);
  await clickMove(page, "h5f7", ["h5", "f7"]);
  assert.equal(await resultMessage(page), "Game over: White wins by checkmate (1-0)");
  await page.screenshot({ path: join(SCREENSHOTS, "real-hoplit.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Jumping King: the last jumps place men through the picker, then a bishop enters f8 (J3, J4, J5, J6)", async () => {
  // Both kings are in their jumping phase with two men each to place.
  const fen = "8/krbn4/4bp2/3p1r2/5N2/K7/RNBRPP2/8[BPnp] w Jj 0 20";
  const { page, errors } = await openGame("jumpingking", fen);
  // Files g and h, with no square, are not drawn: 6x8 cells, 10 of them
  // holes (b1-f1, a8-e8) beside the 38 squares (J1).
  assert.equal(await page.locator("#board .sq.hole").count(), 10);
  // White's king jumps a3-c4 and leaves a bishop behind (picker: B or P).
  await square(page, "a3").click();
  await square(page, "c4").click();
  await page.waitForSelector("#chooser:not([hidden])");
  assert.equal(await page.locator("#chooser-title").textContent(), "Which man does the king leave behind?");
  const roles = await page.locator("#chooser-options button").evaluateAll((els) => els.map((e) => e.dataset.role).sort());
  assert.deepEqual(roles, ["b", "p"]);
  await clickMove(page, "a3c4b", [{ choose: "a3c4b" }]);
  assert.equal(await square(page, "a3").getAttribute("data-piece"), "B");
  // Black's king jumps a7-c6 and leaves a knight.
  await clickMove(page, "a7c6n", ["a7", "c6", { choose: "a7c6n" }]);
  assert.equal(await square(page, "a7").getAttribute("data-piece"), "n");
  // The last men: one kind left, no picker.
  await clickMove(page, "c4e3p", ["c4", "e3"]);
  await clickMove(page, "c6a5p", ["c6", "a5"]);
  assert.equal(await page.locator("#reserve-bottom .token").count(), 0);
  assert.equal(await page.locator("#reserve-top .token").count(), 0);
  // Both phases are over: the bishop runs to Black's weak square.
  await clickMove(page, "a3f8", ["a3", "f8"]);
  assert.equal(await resultMessage(page), "Game over: White wins by reaching the weak square (1-0)");
  assert.equal(await square(page, "f8").getAttribute("data-piece"), "B");
  await page.screenshot({ path: join(SCREENSHOTS, "real-jumpingking.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("Jumping King from the start: the first jumps, holes and men in reserve (J1, J2, J4)", async () => {
  const { page, errors } = await openGame("jumpingking");
  assert.equal(await page.locator("#board .sq:not(.hole)").count(), 38);
  assert.equal(await page.locator("#reserve-bottom .token").count(), 4);
  assert.equal(await page.locator("#reserve-top .token").count(), 4);
  // The first jump places nothing.
  await clickMove(page, "a1c2", ["a1", "c2"]);
  await clickMove(page, "f8d7", ["f8", "d7"]);
  await square(page, "c2").click();
  const targets = await page.locator(".sq.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ["a3", "b4", "d4", "e3"]);
  await clickMove(page, "c2e3r", ["e3", { choose: "c2e3r" }]);
  assert.equal(await square(page, "c2").getAttribute("data-piece"), "R");
  await page.screenshot({ path: join(SCREENSHOTS, "real-jumpingking-start.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

// ---- Analysis mode, against the real engine ----

test("analysis: a score from White's view and a best line, following the shown position", async () => {
  const { page, errors } = await openGame("chess");
  assert.equal(await page.locator("#analysis").isVisible(), false);
  await page.check("#analysis-toggle");
  await page.waitForSelector("#analysis:not([hidden])");
  assert.match(await page.locator("#analysis .eval .label").textContent(), /White's view/);
  const answered = (ply) =>
    page.waitForFunction(
      (p) => {
        const panel = document.getElementById("analysis");
        return panel.dataset.ply === p && document.getElementById("analysis-line").textContent !== "";
      },
      String(ply),
      { timeout: 20000 },
    );
  await answered(0);
  const score = () => page.locator("#analysis-score").textContent();
  const line = () => page.locator("#analysis-line").textContent();
  assert.match(await score(), /^([+-]?\d+\.\d\d|(White|Black) (mates|wins) in \d+)$/);
  assert.match(await line(), /^1\. \S+/);
  assert.match(await page.locator("#analysis-depth").textContent(), /^depth \d+$/);
  // A move by clicks: the position after it is analysed, Black to move.
  await square(page, "e2").click();
  await square(page, "e4").click();
  await answered(1);
  assert.match(await line(), /^1\.\.\. \S+/);
  // Stepping back shows the analysis of the start again, never the
  // (slower, older) answer for the position after 1.e4.
  await page.click("#nav-back");
  await answered(0);
  assert.match(await line(), /^1\. \S+/);
  assert.match(await page.locator("#status").textContent(), /^Viewing the position after 0 of 1 moves/);
  await page.screenshot({ path: join(SCREENSHOTS, "real-analysis.png") });
  // In a game that is over there is nothing to analyse.
  await page.click("#nav-end");
  await answered(1);
  for (const [from, to] of [["f7", "f6"], ["d2", "d4"], ["g7", "g5"], ["d1", "h5"]]) {
    const n = await page.locator("#moves button").count();
    await square(page, from).click();
    await square(page, to).click();
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
  }
  assert.equal(await resultMessage(page), "Game over: White wins by checkmate (1-0)");
  await page.waitForFunction(
    () => document.getElementById("analysis-status").textContent === "The game is over: nothing to analyse.",
  );
  assert.equal(await score(), "");
  assert.equal(await line(), "");
  assert.deepEqual(errors, []);
  await page.close();
});
