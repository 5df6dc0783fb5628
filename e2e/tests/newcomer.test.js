// The page as a newcomer meets it (issue 45), at a phone's, a laptop's and
// a desktop's size: what the player must answer (the prompt, the
// opponent's offer, an error, the game's buttons) is on the screen beside
// the board without scrolling, a new game opens with its board in view,
// and an outage is shown honestly (the move not sent is kept for a retry).
// Screenshots: e2e/screenshots/newcomer-*.png.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { rmSync } from "node:fs";
import { startBrowser, startServer, square, boardRect, SCREENSHOTS, setUp, openTab, routeGameSocket } from "./harness.js";

const env = setUp({ browsers: 0, serverEach: true });

const SIZES = [
  { width: 375, height: 667 },
  { width: 1280, height: 900 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

const sizeName = (v) => `${v.width}x${v.height}`;

// The elements (by id) that are not wholly inside the window as it is
// (not scrolled): each with its rectangle.
async function offScreen(page, ids) {
  return page.evaluate((list) => {
    const out = [];
    for (const id of list) {
      const e = document.getElementById(id);
      const r = e ? e.getBoundingClientRect() : null;
      if (!r || r.width === 0 || r.height === 0) out.push(`${id}: not shown`);
      else if (r.top < 0 || r.left < 0 || r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5) {
        out.push(`${id}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
      }
    }
    return out;
  }, ids);
}

// A friend game of `variant` between two browsers: `host` creates it as
// White, `guest` opens the invitation and joins. Returns both pages.
async function friendGame(host, guest, url, variant) {
  const A = (await openTab(host)).page;
  // White's moves go over the game's socket, routed through the test.
  const sock = await routeGameSocket(A);
  const errors = [];
  A.on("pageerror", (e) => errors.push(e.message));
  await A.goto(url);
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", variant);
  await A.selectOption("#friend-color", "white");
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  const B = (await openTab(guest)).page;
  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await A.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  return { A, B, errors, sock };
}

for (const size of SIZES) {
  test(`${sizeName(size)}: the prompt, the opponent's offer, an error and the game's buttons are on screen beside the board`, async () => {
    const host = await startBrowser(size);
    const guest = await startBrowser();
    try {
      const { A, B, errors, sock } = await friendGame(host, guest, env.server.url, "hopchess");
      await square(A, "e2").click();
      await square(A, "e4").click();
      await B.waitForFunction(() => document.getElementById("status").textContent === "Black to move");
      await square(B, "e7").click();
      await square(B, "e5").click();
      await square(B, "e6").click();
      await A.waitForFunction(() => document.getElementById("status").textContent === "White to move");
      // Black offers a draw; White sees it with its buttons.
      await B.click("#draw");
      await A.waitForSelector("#draw-accept");
      // White's half-made turn: the piece moved, the trampoline square asked.
      await square(A, "g1").click();
      await square(A, "f3").click();
      await A.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
      // A refused move: its reason is shown.
      sock.onMove = (msg) => ({ t: "error", a: msg.a, d: { error: "the test refuses this move" } });
      // (the trampoline's first square: one of the marked ones)
      await A.locator("#board .sq:has(.mark.place)").first().click();
      await A.waitForFunction(() => document.getElementById("error").textContent !== "");
      assert.equal(await A.evaluate(() => window.scrollY), 0, "the page scrolled");
      const b = await boardRect(A);
      assert.ok(b.top >= 0 && b.bottom <= size.height, `the board (${b.top}-${b.bottom}px) is on the screen`);
      await A.screenshot({ path: join(SCREENSHOTS, `newcomer-prompt-${sizeName(size)}.png`) });
      // A phone has no room for all of it beside (or under) the board: what
      // must be answered is on its screen, the status and buttons follow
      // the board.
      const phone = size.width <= 600;
      const all = ["status", "draw-accept", "draw-decline", "error", "resign", "draw"];
      assert.deepEqual(await offScreen(A, phone ? ["draw-accept", "draw-decline", "error"] : all), []);
      // The half-made turn stays, its Cancel on screen too.
      sock.onMove = null;
      await A.waitForSelector("#cancel:not([hidden])");
      assert.deepEqual(await offScreen(A, phone ? ["draw-accept"] : ["status", "cancel", "resign", "draw-accept"]), []);
      assert.deepEqual(errors, []);
    } finally {
      await host.close();
      await guest.close();
    }
  });
}

test("375x667: a new game opens with its board in view, not at the home page's scroll", async () => {
  const browser = await startBrowser({ width: 375, height: 667 });
  try {
    const { page, errors } = await openTab(browser);
    for (const button of ["#create-friend", "#create-engine"]) {
      await page.goto(env.server.url);
      await page.waitForSelector(button);
      await page.selectOption("#variant", "chess");
      if (button === "#create-engine") await page.selectOption("#engine-level", "1");
      // The button is far down the home page: clicking it scrolls there.
      await page.click(button);
      await page.waitForSelector("#board .sq");
      await page.waitForFunction(() => /^\/g\/\w+/.test(location.pathname));
      await page.waitForFunction(() => /to move|Waiting/.test(document.getElementById("status").textContent));
      const b = await boardRect(page);
      await page.screenshot({ path: join(SCREENSHOTS, `newcomer-opened-${button.slice(8)}-375x667.png`) });
      assert.ok(b.top >= 0 && b.bottom <= 667, `${button}: the board (${Math.round(b.top)}-${Math.round(b.bottom)}px) is not in view`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

const text = (page, id) => page.locator("#" + id).textContent();

test("an outage: the move not sent is said in plain words and kept, the message goes on reconnect, presence follows the socket", async () => {
  const host = await startBrowser({ width: 1280, height: 900 });
  const guest = await startBrowser();
  try {
    const { A, B, errors } = await friendGame(host, guest, env.server.url, "chess");
    const opponentOn = () => A.evaluate(() => document.querySelector("#player-top .presence").classList.contains("on"));
    await A.waitForFunction(() => document.querySelector("#player-top .presence").classList.contains("on"));
    const { port, dataDir } = env.server;
    await env.server.kill();
    await A.waitForFunction(() => document.getElementById("conn").dataset.state === "offline");
    // Nobody is known to be connected while this page is not.
    assert.equal(await opponentOn(), false, "the opponent's dot stays green while the page is offline");
    // An offer that cannot reach the server: said in plain words.
    await A.click("#draw");
    await A.waitForFunction(() => document.getElementById("error").textContent !== "");
    assert.match(await text(A, "error"), /server cannot be reached/);
    assert.doesNotMatch(await text(A, "error"), /fetch/i);
    // A move: not sent, said so, and kept on the board with a retry.
    await square(A, "e2").click();
    await square(A, "e4").click();
    await A.waitForSelector("#unsent-send");
    assert.match(await text(A, "unsent"), /^Your move e4 was not sent\. The server could not be reached/);
    assert.equal(await A.locator('.arrow.unsent[data-points="e2 e4"]').count(), 1, "the kept move is not on the board");
    assert.doesNotMatch(await text(A, "error"), /fetch/i);
    await A.screenshot({ path: join(SCREENSHOTS, "newcomer-outage-1280x900.png") });
    // The server is back: the outage's words go, the move is still kept.
    env.server = await startServer({ dataDir, port });
    await A.waitForFunction(() => document.getElementById("conn").dataset.state === "live", null, { timeout: 20000 });
    await A.waitForFunction(() => /^Your move e4 was not sent\. The connection is back/.test(document.getElementById("unsent").textContent));
    assert.doesNotMatch(await text(A, "unsent"), /could not be reached/);
    assert.equal(await text(A, "error"), "");
    assert.equal(await A.locator('.arrow.unsent[data-points="e2 e4"]').count(), 1);
    await A.waitForFunction(() => document.querySelector("#player-top .presence").classList.contains("on"), null, { timeout: 20000 });
    await A.screenshot({ path: join(SCREENSHOTS, "newcomer-outage-back-1280x900.png") });
    // Sent again: played, and seen by the opponent.
    await A.click("#unsent-send");
    for (const p of [A, B]) await p.waitForFunction(() => document.querySelectorAll("#moves button").length === 1, null, { timeout: 20000 });
    assert.equal(await A.locator("#unsent").count(), 0);
    assert.equal(await A.locator(".arrow.unsent").count(), 0);
    assert.deepEqual(errors, []);
    await env.server.stop();
    env.server = null;
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    await host.close();
    await guest.close();
  }
});
