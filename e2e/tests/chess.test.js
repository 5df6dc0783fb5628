// The page in a real browser: moves by click and drag, promotion picker,
// result message, history, takeback, FEN/PGN, rules.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { square, clickMoves, drag, newLocalGame, SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();

async function openPage() {
  const { page, errors } = await openTab(env.browser);
  await newLocalGame(page, env.server.url, "chess");
  await page.waitForSelector('[data-square="e2"][data-piece="P"]');
  return { page, errors };
}

test("the variant picker offers the implemented games only", async () => {
  const { page, errors } = await openTab(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector("#create-local");
  const options = await page.locator("#variant option").allTextContents();
  const info = await (await fetch(new URL("/api/info", env.server.url))).json();
  assert.deepEqual(options, info.variants.map((v) => v.title));
  assert.equal(options[0], "Chess");
  // The app plugs the engine in, so the engine game and analysis are offered.
  assert.ok(info.engine && info.engine.name.startsWith("Springboard"));
  assert.equal(await page.locator("#card-engine").isVisible(), true);
  assert.equal(await page.locator("#card-analysis").isVisible(), true);
  // The time controls offered at creation.
  assert.deepEqual(await page.locator("#friend-clock option").allTextContents(), [
    "1+0",
    "3+2",
    "5+3",
    "10+5",
    "15+10",
    "Unlimited",
    "1 day per move",
    "2 days per move",
    "3 days per move",
    "5 days per move",
    "7 days per move",
    "14 days per move",
    "10 days + 2 per move",
  ]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("against the real engine: the server answers a move with a legal move", async () => {
  const { page, errors } = await openTab(env.browser);
  // The page never asks the engine itself in an engine game.
  const asked = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/engine")) asked.push(r.url());
  });
  await page.goto(env.server.url);
  await page.waitForSelector("#create-engine");
  await page.selectOption("#engine-color", "white");
  await page.selectOption("#engine-level", "1");
  await page.click("#create-engine");
  await page.waitForSelector('[data-square="e2"][data-piece="P"]');
  await square(page, "e2").click();
  await square(page, "e4").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2, null, {
    timeout: 20000,
  });
  const moves = await page.locator("#moves button").allTextContents();
  assert.equal(moves[0], "e4");
  // The server checked the engine's move with the rules core; the page shows
  // White to move again with legal targets for the e-pawn's neighbours.
  await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  await square(page, "d2").click();
  const targets = await page.locator(".sq.target").count();
  assert.ok(targets >= 1, `targets: ${targets}`);
  assert.deepEqual(asked, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("analysis from the creation screen: the engine's view is shown, and kept over a reload", async () => {
  const { page, errors } = await openTab(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector("#create-analysis");
  await page.click("#create-analysis");
  await page.waitForSelector("#analysis:not([hidden])");
  assert.match(await page.evaluate(() => location.pathname + location.hash), /^\/g\/\w+#analysis$/);
  assert.equal(await page.locator("#analysis-toggle").isChecked(), true);
  await page.waitForFunction(() => document.getElementById("analysis-line").textContent !== "", null, { timeout: 20000 });
  await page.reload();
  await page.waitForSelector("#analysis:not([hidden])");
  assert.equal(await page.locator("#analysis-toggle").isChecked(), true);
  // Both sides move at one screen.
  await clickMoves(page, ["e2e4", "e7e5"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("fool's mate by clicks ends with the result message", async () => {
  const { page, errors } = await openPage();
  // Picking a piece highlights its legal targets only.
  await square(page, "g1").click();
  const targets = await page.locator(".sq.target").evaluateAll((els) => els.map((e) => e.dataset.square).sort());
  assert.deepEqual(targets, ["f3", "h3"]);
  await square(page, "g1").click();
  await clickMoves(page, ["f2f3", "e7e5", "g2g4", "d8h4"]);
  await page.waitForSelector("#status.over");
  assert.equal(await page.locator("#status").textContent(), "Game over: Black wins by checkmate (0-1)");
  assert.deepEqual(await page.locator("#moves button").allTextContents(), ["f3", "e5", "g4", "Qh4#"]);
  assert.equal(await square(page, "h4").getAttribute("data-piece"), "q");
  // The last move and the checked king are shown.
  assert.ok(await square(page, "h4").evaluate((e) => e.classList.contains("last")));
  assert.ok(await square(page, "e1").evaluate((e) => e.classList.contains("check")));
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, "fools-mate.png") });

  // PGN export: chess has no Variant tag (the PGN standard's way), the
  // clock is unlimited, and the moves are in SAN.
  await page.click("#export-pgn");
  await page.waitForFunction(() => document.getElementById("text").value.includes("Qh4#"));
  const pgn = await page.locator("#text").inputValue();
  assert.ok(!pgn.includes("[Variant "), pgn);
  assert.ok(pgn.includes('[TimeControl "-"]'), pgn);
  assert.ok(pgn.includes("1. f3 e5 2. g4 Qh4# {checkmate} 0-1"), pgn);

  // Step back through the moves, then take the last one back.
  await page.click("#nav-back");
  await page.waitForFunction(() => document.getElementById("status").textContent.startsWith("Viewing"));
  assert.equal(await square(page, "d8").getAttribute("data-piece"), "q");
  await page.click("#nav-end");
  await page.waitForSelector("#status.over");
  await page.click("#takeback");
  await page.waitForFunction(() => document.getElementById("status").textContent === "Black to move");
  assert.equal(await page.locator("#moves button").count(), 3);

  // Import the PGN again: the same game, over (a game to replay).
  const path = await page.evaluate(() => location.pathname);
  await page.fill("#text", pgn);
  await page.click("#import-pgn");
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 4);
  await page.waitForSelector("#status.over");
  assert.equal(await page.locator("#status").textContent(), "Game over: Black wins by checkmate (0-1)");
  await square(page, "e2").click();
  assert.equal(await page.locator(".sq.target").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a piece can be dragged", async () => {
  const { page, errors } = await openPage();
  await drag(page, square(page, "e2"), square(page, "e4"));
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  assert.equal(await square(page, "e4").getAttribute("data-piece"), "P");
  assert.equal(await square(page, "e2").getAttribute("data-piece"), null);
  assert.equal(await page.locator("#status").textContent(), "Black to move");
  // A drag to a square the piece cannot reach plays nothing.
  await drag(page, square(page, "g8"), square(page, "g5"));
  assert.equal(await page.locator("#moves button").count(), 1);
  assert.equal(await square(page, "g8").getAttribute("data-piece"), "n");
  assert.deepEqual(errors, []);
  await page.close();
});

test("promotion through the picker, from a loaded FEN", async () => {
  const { page, errors } = await openPage();
  await page.fill("#text", "7k/P7/8/8/8/8/8/K7 w - - 0 1");
  await page.click("#import-fen");
  await page.waitForSelector('[data-square="a7"][data-piece="P"]');
  await square(page, "a7").click();
  await square(page, "a8").click();
  await page.waitForSelector("#chooser:not([hidden])");
  const roles = await page.locator("#chooser-options button").evaluateAll((els) => els.map((e) => e.dataset.role));
  assert.deepEqual(roles.sort(), ["b", "n", "q", "r"]);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, "promotion.png") });
  await page.click('#chooser-options button[data-role="n"]');
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  assert.equal(await square(page, "a8").getAttribute("data-piece"), "N");
  assert.deepEqual(await page.locator("#moves button").allTextContents(), ["a8=N"]);
  assert.equal(await page.locator("#moves li").first().textContent(), "1.a8=N");
  await page.click("#export-fen");
  await page.waitForFunction(() => document.getElementById("text").value.startsWith("N6k/"));
  assert.equal(await page.locator("#text").inputValue(), "N6k/8/8/8/8/8/8/K7 b - - 0 1");
  // A bad FEN is refused with the reason: the field that is wrong.
  await page.fill("#text", "8/8/8 w - - 0 1");
  await page.click("#import-fen");
  await page.waitForFunction(() => document.getElementById("text-error").textContent !== "");
  assert.match(await page.locator("#text-error").textContent(), /^Chess cannot load this position: the board field needs 8 ranks/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("flip board and rules page", async () => {
  const { page, errors } = await openPage();
  const first = () => page.locator("#board .sq").first().getAttribute("data-square");
  assert.equal(await first(), "a8");
  await page.click("#flip");
  assert.equal(await first(), "h1");
  await page.click("#rules-button");
  await page.waitForSelector("#rules[open]");
  assert.match(await page.locator("#rules-text h2").first().textContent(), /Chess/);
  await page.screenshot({ path: join(SCREENSHOTS, "rules.png") });
  assert.deepEqual(errors, []);
  await page.close();
});
