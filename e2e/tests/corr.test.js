// Correspondence play (issue 42, item 4): a friend game of 3 days per
// move between two browsers; Black, while White is to move, enters a
// conditional line in SAN on the game page; White plays the expected
// reply and Black's answer is on both boards at once. The clocks show
// days, and White's home page lists the game under "Your turn".
// Screenshots of the game page and the home page at 375x667 and 1280x800
// (into SPRINGBOARD_SHOTS when set, else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab, noSideScroll } from "./harness.js";

const env = setUp({ browsers: 2 });
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

const moves = (page) => page.locator("#moves button").count();

test("a conditional move is played at once in a correspondence game", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  await A.goto(env.server.url);
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", "chess");
  await A.selectOption("#friend-color", "white");
  await A.selectOption("#friend-clock", { label: "3 days per move" });
  await A.click("#create-friend");
  await A.waitForSelector("#invite:visible");
  const link = await A.inputValue("#invite-link");
  await B.goto(link);
  await B.click("#join");
  await B.waitForFunction(() => document.querySelector("#status").textContent.length > 0);
  // The clocks count days; White's runs from the start.
  await A.waitForFunction(() => /^\d+d \d+h$/.test(document.querySelector("#player-bottom .clock").textContent));
  assert.match(await A.locator("#player-bottom .clock").innerText(), /^(2d 23h|3d 0h)$/);

  // Black, not to move, enters a line in SAN: 1.e4 e5.
  await B.waitForSelector("#conditional:visible");
  await B.waitForSelector("#conditional-form:visible");
  await B.fill("#conditional-text", "e4 e5");
  await B.click("#conditional-add");
  await B.waitForFunction(() => document.querySelector("#conditional-lines").textContent.includes("e2e4 e7e5"));
  // A line that is no line is refused with the reason, and changes nothing.
  await B.fill("#conditional-text", "e4 e9");
  await B.click("#conditional-add");
  await B.waitForFunction(() => document.querySelector("#conditional-error").textContent.includes("Move 2"));
  assert.equal(await B.locator("#conditional-lines li").count(), 1);
  // White does not see Black's lines, and may not enter any now.
  await A.waitForSelector("#conditional:visible");
  assert.ok(!(await A.locator("#conditional-lines").innerText()).includes("e7e5"));
  assert.equal(await A.locator("#conditional-form").isVisible(), false);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await B.setViewportSize({ width: w, height: h });
    await B.locator("#conditional").scrollIntoViewIfNeeded();
    await B.screenshot({ path: join(SHOTS, `corr-conditional-${w}x${h}.png`) });
    await noSideScroll(B);
  }
  await B.setViewportSize({ width: 1100, height: 760 });

  // White plays e4 (through the page's API call): Black's e5 comes at once.
  const answer = await A.evaluate(async () => {
    const id = location.pathname.split("/")[2];
    const r = await fetch(`/api/games/${id}/move`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ move: "e2e4" }),
    });
    return r.json();
  });
  assert.equal(answer.plies, 2);
  assert.equal(answer.last_move.uci, "e7e5");
  await A.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  assert.match(await B.locator("#moves").innerText(), /e5/);
  // The line was used up.
  await B.waitForFunction(() => !document.querySelector("#conditional-lines").textContent.includes("e2e4"));
  assert.equal(await moves(A), 2);

  // White is to move again: the game is on White's "your turn" list.
  await A.goto(env.server.url);
  await A.waitForSelector("#your-turn:visible");
  const item = await A.locator("#your-turn-list li").first().innerText();
  assert.match(item, /Chess/);
  assert.match(item, /3 days per move/);
  assert.match(item, /left/);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await A.setViewportSize({ width: w, height: h });
    await A.locator("#your-turn").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(SHOTS, `corr-your-turn-${w}x${h}.png`) });
    await noSideScroll(A);
  }
  // Black has nothing to move.
  await B.goto(env.server.url);
  await B.waitForSelector("#lobby");
  await B.waitForTimeout(1200);
  assert.equal(await B.locator("#your-turn").isVisible(), false);
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
});
