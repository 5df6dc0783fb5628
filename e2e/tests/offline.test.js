// The page without the server (issue 44, item 4): after one visit the
// service worker (/sw.js) has kept the page, its files and the WebAssembly
// engine; with the network cut (Playwright's offline mode) the page still
// loads, a game against the engine in the browser is played (Hop Chess and
// chess, the engine moving in its worker), kept in the browser's storage
// across a reload, listed on the creation screen, exported as PGN and
// loaded back into a game at one screen with the analysis board on.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openTab, setUp, square, SCREENSHOTS } from "./harness.js";

const env = setUp();

// The page served from disk (harness.js) runs without the service worker.
const skip = process.env.SPRINGBOARD_E2E_STATIC ? "the service worker needs the server's own files (SPRINGBOARD_E2E_STATIC is set)" : false;

const moveCount = (page) => page.locator("#moves button").count();

// The view of the kept game shown, as the page's own module answers it
// (the same module instance as the page's: no request leaves the page).
function keptView(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split("/")[2];
    const mod = await import("/static/localgame.js");
    return mod.localCall("GET", `/api/games/${id}`);
  });
}

// Plays a move of the player by clicking it (an opening move where there
// is one, else the rules core's first): the piece, its target and, in Hop
// Chess, the trampoline's square; then waits for the engine's reply (two
// more moves in the list) or the end of the game.
const LIKED = ["e2e4", "d2d4", "e7e5", "d7d5", "g1f3", "b8c6", "b1c3", "g8f6", "f1e2", "f8e7", "c2c3", "c7c6"];
async function playAndWaitReply(page) {
  const v = await keptView(page);
  assert.equal(v.turn, v.you, "the player is to move");
  // Moves the page plays with plain clicks: no bounce to choose, no
  // promotion, the trampoline set down elsewhere than where it stands.
  const chooses = new Set(v.legal.filter((x) => x.via.length > 0 || x.kind !== "normal").map((x) => x.from + x.to));
  const stands = (v.trampolines || []).map((t) => t.square);
  const clickable = v.legal.filter((x) => x.from && x.to && !chooses.has(x.from + x.to) && !(x.place && stands.includes(x.place)));
  const m = LIKED.map((u) => clickable.find((x) => x.from + x.to === u)).find((x) => x) || clickable[0];
  assert.ok(m, `a move to click: ${JSON.stringify({ status: v.status, history: v.history.map((h) => h.san) })}`);
  const before = await moveCount(page);
  await square(page, m.from).click();
  await square(page, m.to).click();
  if (m.place) {
    await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
    await square(page, m.place).click();
  }
  for (let t = 0; t < 300; t++) {
    const now = await keptView(page);
    if (now.status !== "playing" || now.plies >= v.plies + 2) {
      await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, before + (now.plies - v.plies));
      return now;
    }
    await page.waitForTimeout(200);
  }
  assert.fail("the engine did not reply");
}

// Plays up to `rounds` moves and replies while the game goes on.
async function playRounds(page, rounds) {
  let v = await keptView(page);
  for (let i = 0; i < rounds && v.status === "playing"; i++) v = await playAndWaitReply(page);
  return v;
}

test("a game against the engine in the browser with the network cut: kept, exported as PGN, loaded back", { skip }, async () => {
  const { page, errors } = await openTab(env.browser);
  const context = env.browser.context;
  await page.goto(env.server.url);
  // One visit: the worker installed (every file kept) and the rules core loaded.
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => document.documentElement.dataset.rules === "wasm");
  await page.waitForSelector("#create-offline:not([hidden])");

  await context.setOffline(true);
  try {
    // The page loads with the server out of reach, from the worker's cache.
    await page.reload();
    await page.waitForSelector("#create-screen:not([hidden])");
    assert.equal(await page.evaluate(() => !!navigator.serviceWorker.controller), true, "the worker answers");
    await page.waitForSelector("#offline-note:not([hidden])");
    await page.waitForSelector("#create-offline:not([hidden])");

    // Hop Chess against the engine at level 2, White.
    await page.selectOption("#variant", "hopchess");
    await page.selectOption("#engine-color", "white");
    await page.selectOption("#engine-level", "2");
    await page.click("#create-offline");
    await page.waitForFunction(() => /^\/g\/local-/.test(location.pathname));
    await page.waitForSelector("#board .sq");
    assert.match(await page.locator("#game-title").textContent(), /Hop Chess/);
    assert.match(await page.locator("#player-top .name").textContent(), /level 2/);
    // (The engine may win early: its level is low, not the player's moves.)
    await playRounds(page, 3);
    const kept = await keptView(page);
    assert.ok(kept.plies >= 4, `${kept.plies} moves`);
    assert.equal(kept.engine.level, 2);
    const hopPath = await page.evaluate(() => location.pathname);
    for (const [w, h, name] of [
      [375, 667, "offline-game-phone.png"],
      [1280, 800, "offline-game-desktop.png"],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
    }
    await page.setViewportSize({ width: 1100, height: 760 });

    // A reload, still offline: the game is kept, move by move.
    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, kept.plies);
    assert.equal(await page.evaluate(() => location.pathname), hopPath);
    const again = await keptView(page);
    assert.deepEqual(
      again.history.map((h) => h.uci),
      kept.history.map((h) => h.uci),
    );

    // Another game: chess, the engine (level 5) as White moves first.
    await page.goto(env.server.url);
    await page.waitForSelector("#local-games:not([hidden])");
    assert.equal(await page.locator("#local-games-list li").count(), 1);
    await page.waitForSelector("#create-offline:not([hidden])");
    await page.selectOption("#variant", "chess");
    await page.selectOption("#engine-color", "black");
    await page.selectOption("#engine-level", "5");
    await page.click("#create-offline");
    await page.waitForFunction(() => /^\/g\/local-/.test(location.pathname));
    await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1, null, { timeout: 60000 });
    assert.ok((await playRounds(page, 1)).plies >= 2);

    // Both listed on the creation screen.
    await page.click("#nav-new");
    await page.waitForFunction(() => document.querySelectorAll("#local-games-list li").length === 2);
    const listed = await page.locator("#local-games-list").textContent();
    assert.match(listed, /Hop Chess against the engine, level 2/);
    assert.match(listed, /Chess against the engine, level 5/);
    await page.screenshot({ path: join(SCREENSHOTS, "offline-home.png"), fullPage: true });

    // The Hop Chess game as PGN, loaded back into the analysis board.
    await page.click(`#local-games-list a[href="${hopPath}"]`);
    await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, kept.plies);
    await page.click("#export-pgn");
    await page.waitForFunction(() => document.getElementById("text").value.includes("[Variant"));
    const pgn = await page.locator("#text").inputValue();
    assert.match(pgn, /\[Variant "hopchess"\]/);
    assert.match(pgn, /\[Black "Springboard .* \(level 2\)"\]/);
    assert.match(pgn, /\[White "You"\]/);
    assert.match(pgn, /^1\. /m);
    // The download link carries the same text (no request: a data URL).
    const href = await page.locator("#download-pgn").getAttribute("href");
    assert.ok(href.startsWith("data:"), href);
    assert.equal(decodeURIComponent(href.slice(href.indexOf(",") + 1)), pgn);
    await page.click("#import-pgn");
    await page.waitForFunction((p) => location.pathname !== p && /^\/g\/local-/.test(location.pathname), hopPath);
    await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, kept.plies);
    const loaded = await keptView(page);
    assert.equal(loaded.mode, "local");
    assert.equal(loaded.variant, "hopchess");
    assert.deepEqual(
      loaded.history.map((h) => h.san),
      kept.history.map((h) => h.san),
    );
    // The analysis board: the engine in its worker analyses a position of
    // the game (its first move's: the last may be a mate, where nothing is
    // left to search).
    await page.locator("#moves button").first().click();
    await page.check("#analysis-toggle");
    await page.waitForSelector("#analysis:not([hidden])");
    await page.waitForFunction(() => /^depth \d+$/.test(document.getElementById("analysis-depth").textContent), null, { timeout: 60000 });
    await page.screenshot({ path: join(SCREENSHOTS, "offline-analysis.png") });
  } finally {
    await context.setOffline(false);
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("the worker keeps the page's files and never the API", { skip }, async () => {
  const { page, errors } = await openTab(env.browser);
  await page.goto(env.server.url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const kept = await page.evaluate(async () => {
    const names = await caches.keys();
    const mine = names.filter((n) => n.startsWith("springboard-"));
    const cache = await caches.open(mine[0]);
    const urls = (await cache.keys()).map((r) => new URL(r.url).pathname);
    return { caches: mine.length, urls };
  });
  assert.equal(kept.caches, 1, "one version kept");
  for (const f of ["/", "/static/app.js", "/static/localgame.js", "/static/engineworker.js", "/static/wasm.json"]) {
    assert.ok(kept.urls.includes(f), `${f} kept`);
  }
  assert.ok(kept.urls.some((u) => /^\/static\/springboard_bg-[0-9a-f]{16}\.wasm$/.test(u)), "the engine kept");
  assert.ok(!kept.urls.some((u) => u.startsWith("/api/")), "no API answer kept");
  assert.deepEqual(errors, []);
  await page.close();
});
