// A first visit (issue 11, item 12): the landing page says what Springboard
// and its five games are, with each game's rules one click away; the
// level picker names the levels with their measured ratings; the move
// list's buttons are enabled only when they lead somewhere; the PGN can be
// copied and downloaded under the moves; the result closes the move list
// (½-½ for a draw); a Hoplit drop shows the pawn it pushes while its square
// is pointed at. Screenshots of the landing page, the level picker and a
// finished game at 1920x1080 and 375x667.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { newLocalGame, square, clickMoves, SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();

async function openPage(viewport = null) {
  const { page, errors } = await openTab(env.browser);
  if (viewport) await page.setViewportSize(viewport);
  await page.goto(env.server.url);
  return { page, errors };
}

test("the landing page introduces Springboard and its five games, each with its rules", async () => {
  const { page, errors } = await openPage();
  await page.waitForSelector("#create-local");
  const intro = page.locator("#intro");
  assert.equal(await intro.isVisible(), true);
  assert.match(await intro.textContent(), /Springboard plays chess and four chess variants/);
  const games = await page.locator("#intro a[data-rules]").evaluateAll((as) => as.map((a) => a.dataset.rules));
  const offered = await page.locator("#variant option").evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(games.toSorted(), offered.toSorted());
  // A rules link opens that game's rules, whatever game is picked.
  assert.equal(await page.locator("#variant").inputValue(), "chess");
  await page.click('#intro a[data-rules="hoplit"]');
  await page.waitForSelector("#rules[open]");
  assert.match(await page.locator("#rules-text h2").first().textContent(), /Hoplit/);
  await page.click("#rules .rules-close button");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the level picker names every level with its measured rating", async () => {
  const { page, errors } = await openPage();
  await page.waitForSelector("#create-engine");
  const levels = await page.locator("#engine-level option").allTextContents();
  assert.equal(levels.length, 21);
  assert.match(levels[0], /^1: Beginner \(\d{3,4}\)$/);
  assert.match(levels[20], /^21: Full strength \(\d{4}\)$/);
  const ratings = levels.map((l) => Number(/\((\d+)\)$/.exec(l)[1]));
  assert.match(await page.locator("#level-hint").textContent(), /rough: measured at chess/);
  for (let i = 1; i < ratings.length; i++) assert.ok(ratings[i] >= ratings[i - 1], levels.join(" | "));
  // Each game has its own ratings: picking a game relabels the levels and
  // keeps the level picked.
  await page.selectOption("#engine-level", "9");
  const info = await page.evaluate(async () => (await fetch("/api/info")).json());
  for (const variant of ["trampoline", "hopchess", "jumpingking", "hoplit"]) {
    await page.selectOption("#variant", variant);
    const title = await page.locator(`#variant option[value="${variant}"]`).textContent();
    const shown = await page.locator("#engine-level option").allTextContents();
    assert.equal(shown.length, 21);
    assert.deepEqual(
      shown.map((l) => Number(/\((\d+)\)$/.exec(l)[1])),
      info.engine.levels[variant].map((l) => l.elo),
    );
    assert.equal(await page.locator("#engine-level").inputValue(), "9");
    assert.ok((await page.locator("#level-hint").textContent()).includes(`measured in ${title}`));
  }
  assert.notDeepEqual(info.engine.levels.trampoline, info.engine.levels.chess);
  assert.deepEqual(errors, []);
  await page.close();
});

test("take back and the move list's buttons are off until they lead somewhere", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "chess");
  const disabled = (id) => page.locator("#" + id).isDisabled();
  for (const id of ["takeback", "nav-start", "nav-back", "nav-forward", "nav-end"]) {
    assert.equal(await disabled(id), true, `${id} with no moves`);
  }
  await clickMoves(page, ["e2e4", "e7e5"]);
  assert.equal(await disabled("takeback"), false);
  assert.equal(await disabled("nav-start"), false);
  assert.equal(await disabled("nav-back"), false);
  assert.equal(await disabled("nav-forward"), true, "at the last move");
  assert.equal(await disabled("nav-end"), true, "at the last move");
  await page.click("#nav-start");
  await page.waitForFunction(() => /after 0 of 2/.test(document.getElementById("status").textContent));
  assert.equal(await disabled("nav-start"), true);
  assert.equal(await disabled("nav-back"), true);
  assert.equal(await disabled("nav-forward"), false);
  assert.equal(await disabled("nav-end"), false);
  assert.equal(await disabled("takeback"), true, "not while an older position is shown");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a draw closes the move list with ½-½ and its reason; the PGN is copied and downloaded under the moves", async () => {
  await env.browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
  for (const [name, viewport] of [
    ["desktop", { width: 1920, height: 1080 }],
    ["phone", { width: 375, height: 667 }],
  ]) {
    const { page, errors } = await openPage(viewport);
    // 1.Qf7: stalemate (the black king on h8 has no move and is not in check).
    await newLocalGame(page, env.server.url, "chess", "7k/8/6Q1/8/8/8/8/K7 w - - 0 1");
    await clickMoves(page, ["g6f7"]);
    const result = page.locator("#moves li.result");
    await result.waitFor();
    assert.equal(await result.textContent(), "\u00BD-\u00BD Draw by stalemate");
    assert.equal(await page.locator("#status").textContent(), "Game over: Draw by stalemate (\u00BD-\u00BD)");
    // Copy and download sit right under the move list.
    const box = async (sel) => page.locator(sel).boundingBox();
    const list = await box("#moves");
    const copy = await box("#copy-pgn");
    assert.ok(copy.y >= list.y + list.height - 1 && copy.y < list.y + list.height + 60, JSON.stringify({ list, copy }));
    await page.click("#copy-pgn");
    await page.waitForFunction(() => document.getElementById("pgn-note").textContent === "PGN copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(copied, /\[Result "1\/2-1\/2"\]/);
    assert.match(copied, /1\. Qf7 \{stalemate\} 1\/2-1\/2/);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-pgn")]);
    assert.match(download.suggestedFilename(), /\.pgn$/);
    await page.screenshot({ path: join(SCREENSHOTS, `firstuse-draw-${name}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a Hoplit drop shows the pushed pawn while its square is pointed at", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "hoplit");
  await clickMoves(page, ["g1f3", "g8f6"]);
  const piece = (sq) => square(page, sq).getAttribute("data-piece");
  assert.equal(await piece("g2"), "P");
  await page.click('#reserve-bottom button[data-source="drop:h"]');
  await square(page, "g1").hover();
  await page.waitForFunction(() => document.querySelector('[data-square="g3"]').dataset.piece === "P");
  assert.equal(await piece("g1"), "H");
  assert.equal(await piece("g2"), null);
  await page.screenshot({ path: join(SCREENSHOTS, "firstuse-hoplit-drop-preview.png") });
  // Off the drop squares the board is as it stands.
  await square(page, "d5").hover();
  await page.waitForFunction(() => !document.querySelector('[data-square="g3"]').dataset.piece);
  assert.equal(await piece("g2"), "P");
  assert.equal(await piece("g1"), null);
  // The drop played: as previewed.
  await square(page, "g1").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 3);
  assert.deepEqual([await piece("g1"), await piece("g2"), await piece("g3")], ["H", null, "P"]);
  assert.deepEqual(errors, []);
  await page.close();
});

test("screenshots of the landing page and the level picker", async () => {
  for (const [name, viewport] of [
    ["desktop", { width: 1920, height: 1080 }],
    ["phone", { width: 375, height: 667 }],
  ]) {
    const { page, errors } = await openPage(viewport);
    await page.waitForSelector("#create-engine");
    // On a phone the list of games starts folded, the cards in view.
    assert.equal(await page.locator("#intro-games").evaluate((d) => d.open), name === "desktop");
    await page.screenshot({ path: join(SCREENSHOTS, `firstuse-landing-${name}.png`), fullPage: true });
    await page.selectOption("#engine-level", "18"); // the longest name
    await page.locator("#card-engine").screenshot({ path: join(SCREENSHOTS, `firstuse-levels-${name}.png`) });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= viewport.width, `the page is ${width}px wide`);
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test("a typed move one part short says what it lacks (issue 11, item 14)", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "jumpingking");
  await clickMoves(page, ["a1c2", "f8d7"]);
  // J4: the second jump leaves a man on c2; typed without its letter.
  await page.fill("#move-text", "c2e3");
  await page.click("#move-text-play");
  await page.waitForFunction(() => document.getElementById("move-text-error").textContent !== "");
  assert.match(
    await page.locator("#move-text-error").textContent(),
    /^'c2e3' needs the letter of the man the king leaves on the square it jumped from: c2e3[a-z]/,
  );
  assert.equal(await page.locator("#moves button").count(), 2, "nothing was played");
  assert.deepEqual(errors, []);
  await page.close();
});
