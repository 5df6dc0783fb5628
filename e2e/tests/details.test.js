// The small things a newcomer met (issue 45, item 8), in headless
// Chromium: the board keeps its size when the trays empty, a Hoplit drop's
// pawn step is part of the last move, the Hoplit's glyph stays inside its
// square, a picked Hoplit shows its turning squares, a declined draw or
// rematch tells the offerer, a rematch offer has a Decline, a piece with
// no legal move gives a sign, and the move box goes when the game ends.
// Screenshots: e2e/screenshots/details-*.png.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startBrowser, square, newLocalGame, playByApi, boardRect, SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp({ browsers: 2 });

const SIZES = [
  { width: 375, height: 667 },
  { width: 1280, height: 900 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

const lastSquares = (page) =>
  page.evaluate(() => [...document.querySelectorAll("#board .sq.last")].map((e) => e.dataset.square).sort());

for (const size of SIZES) {
  test(`${size.width}x${size.height}: Hoplit Chess: the board keeps its size when both Hoplits have left the trays; a drop's pawn step is part of the last move`, async () => {
    const browser = await startBrowser(size);
    try {
      const { page, errors } = await openTab(browser);
      await newLocalGame(page, env.server.url, "hoplit");
      const start = await boardRect(page);
      await playByApi(page, ["e2e4", "e7e5", "g1f3", "b8c6", "H@g1"]);
      assert.deepEqual(await lastSquares(page), ["g1", "g2", "g3"]);
      await playByApi(page, ["H@b8"]);
      assert.deepEqual(await lastSquares(page), ["b6", "b7", "b8"]);
      assert.equal(await page.locator("#reserve-top .token, #reserve-bottom .token").count(), 0, "the trays are empty");
      const after = await boardRect(page);
      assert.ok(Math.abs(after.width - start.width) < 1, `the board went from ${start.width} to ${after.width}px`);
      assert.ok(Math.abs(after.top - start.top) < 1, `the board moved from ${start.top} to ${after.top}px`);
      await page.screenshot({ path: join(SCREENSHOTS, `details-hoplit-${size.width}x${size.height}.png`) });
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
}

test("the Hoplit's glyph stays inside its square, its move arrow inside the shield", async () => {
  const { page, errors } = await openTab(env.browsers[0]);
  await newLocalGame(page, env.server.url, "hoplit");
  await playByApi(page, ["e2e4", "e7e5", "g1f3", "b8c6", "H@g1"]);
  // Each shape's box (its stroke included) in the glyph's 100x100 units.
  const shapes = await page.evaluate(() =>
    [...document.querySelectorAll('[data-square="g1"] svg.piece > *')].map((e) => {
      const b = /** @type {SVGGraphicsElement} */ (e).getBBox();
      const w = Number(e.getAttribute("stroke-width") || 0) / 2;
      return { tag: e.tagName, d: e.getAttribute("d"), x0: b.x - w, y0: b.y - w, x1: b.x + b.width + w, y1: b.y + b.height + w };
    }),
  );
  assert.ok(shapes.length >= 4, JSON.stringify(shapes));
  for (const s of shapes) {
    assert.ok(s.x0 >= 6 && s.y0 >= 6 && s.x1 <= 94 && s.y1 <= 94, `a shape reaches the square's edge: ${JSON.stringify(s)}`);
  }
  // The shield (the circle) and the arrow on it (the last two paths).
  const shield = await page.evaluate(() => {
    const c = document.querySelector('[data-square="g1"] svg.piece circle');
    return { cx: Number(c.getAttribute("cx")), cy: Number(c.getAttribute("cy")), r: Number(c.getAttribute("r")), w: Number(c.getAttribute("stroke-width")) };
  });
  const inner = shield.r - shield.w / 2;
  for (const s of shapes.slice(-2)) {
    // The middles of its box's sides (a box's corners may stand outside
    // a round shield while the shape is inside it).
    const mids = [
      [(s.x0 + s.x1) / 2, s.y0],
      [(s.x0 + s.x1) / 2, s.y1],
      [s.x0, (s.y0 + s.y1) / 2],
      [s.x1, (s.y0 + s.y1) / 2],
    ];
    for (const [x, y] of mids) {
      assert.ok(Math.hypot(x - shield.cx, y - shield.cy) <= inner, `the arrow leaves the shield: ${JSON.stringify(s)}`);
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test("a picked Hoplit shows its turning squares; a piece with no legal move gives a sign", async () => {
  const { page, errors } = await openTab(env.browsers[0]);
  await newLocalGame(page, env.server.url, "hoplit");
  // The white Hoplit on f1 slides up the diagonal f1-e2-d3 and turns.
  await playByApi(page, ["e2e4", "e7e5", "f1c4", "b8c6", "H@f1", "g8f6"]);
  await square(page, "f1").click();
  await page.waitForSelector('[data-square="f1"].selected');
  const turns = await page.evaluate(() => [...document.querySelectorAll("#board .mark.turn")].map((e) => e.parentElement.dataset.square).sort());
  const targets = await page.evaluate(() => [...document.querySelectorAll("#board .sq.target")].map((e) => e.dataset.square).sort());
  assert.ok(targets.length > 0, "the Hoplit has moves here");
  assert.ok(turns.length > 0, `no turning square shown (targets ${targets})`);
  for (const t of turns) assert.ok(["e2", "d3"].includes(t), `${t} is no turning square of this Hoplit (targets ${targets})`);
  assert.match(await square(page, turns[0]).getAttribute("aria-label"), /the Hoplit turns here/);
  await page.screenshot({ path: join(SCREENSHOTS, "details-hoplit-turns.png") });
  // A piece with no legal move: a1's rook. The page says so.
  await page.keyboard.press("Escape");
  await square(page, "a1").click();
  await page.waitForFunction(() => /rook on a1 has no legal move/.test(document.getElementById("hint").textContent));
  assert.equal(await page.locator('[data-square="a1"].no-move').count(), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

// A friend game of chess: `host` (White) creates it, `guest` joins.
async function friendGame(url) {
  const A = (await openTab(env.browsers[0])).page;
  const errors = [];
  A.on("pageerror", (e) => errors.push(e.message));
  await A.goto(url);
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", "chess");
  await A.selectOption("#friend-color", "white");
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  const B = (await openTab(env.browsers[1])).page;
  B.on("pageerror", (e) => errors.push(e.message));
  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await A.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  return { A, B, errors };
}

test("a declined draw tells the offerer; a rematch offer can be declined, and that is told too; no move box after the end", async () => {
  const { A, B, errors } = await friendGame(env.server.url);
  assert.equal(await A.locator("#move-entry").isVisible(), true);
  // Black offers a draw, White declines: Black is told.
  await B.click("#draw");
  await A.waitForSelector("#draw-decline");
  await A.click("#draw-decline");
  await B.waitForSelector("#declined");
  assert.equal(await B.locator("#declined").textContent(), "Your opponent declined your draw offer.");
  assert.equal(await A.locator("#declined").count(), 0);
  await B.screenshot({ path: join(SCREENSHOTS, "details-draw-declined.png") });
  // White resigns: the game is over, and neither player has a move box.
  await A.click("#resign");
  await A.click("#resign-yes");
  for (const p of [A, B]) await p.waitForSelector("#status.over");
  for (const p of [A, B]) assert.equal(await p.locator("#move-entry").isVisible(), false);
  // White offers a rematch; Black declines it; White is told, and may ask again.
  await A.click("#rematch");
  await B.waitForSelector("#rematch-decline");
  await B.screenshot({ path: join(SCREENSHOTS, "details-rematch-offer.png") });
  await B.click("#rematch-decline");
  await A.waitForSelector("#declined");
  assert.equal(await A.locator("#declined").textContent(), "Your opponent declined the rematch.");
  await B.waitForFunction(() => !document.getElementById("rematch-decline"));
  await A.waitForSelector("#rematch:not([disabled])");
  assert.equal(await A.locator("#rematch").textContent(), "Rematch");
  assert.deepEqual(errors, []);
  await A.close();
  await B.close();
});
