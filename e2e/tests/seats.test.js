// Seats follow the account (issue 42, item 1): two browser profiles signed
// in to the same account; a friend game started in the first, joined by a
// third profile, is played from the second (it shows "White (you)"), and
// the first sees the move arrive live; the first plays on. Signed out, the
// second may no longer move. A screenshot of the second browser's board
// (into SPRINGBOARD_SHOTS when set, else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab, square } from "./harness.js";

// Three profiles: the account's two browsers and the opponent.
const env = setUp({ browsers: 3 });
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;
const PASSWORD = "a good password";

async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n, { timeout: 10000 });
}

// Signs in (or up) from the header's control and waits until the header
// shows the name.
async function account(page, name, action) {
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  await page.fill("#account-user", name);
  await page.fill("#account-password", PASSWORD);
  await page.click(action);
  await page.waitForSelector("#account-name:visible");
  assert.equal(await page.locator("#account-name").textContent(), name);
}

// Plays `from`-`to` by clicks on `page` and waits until every page of
// `pages` shows the move (`uci`) as the last of `n` moves.
async function clickMove(page, from, to, n, pages) {
  await square(page, from).click();
  await square(page, to).click();
  for (const p of pages) {
    await waitMoves(p, n);
    assert.equal(await p.locator("#moves button").nth(n - 1).getAttribute("title"), `${from}${to}`);
  }
}

test("a move from a second browser signed in to the same account", async () => {
  const { page: first, errors: firstErrors } = await openTab(env.browsers[0]);
  const { page: second, errors: secondErrors } = await openTab(env.browsers[1]);
  const { page: rival, errors: rivalErrors } = await openTab(env.browsers[2]);
  const name = `Seat_${Date.now() % 100000}`;

  await first.goto(env.server.url);
  await first.waitForSelector("#account-open:visible");
  await account(first, name, "#account-signup");
  await first.waitForSelector("#create-friend");
  await first.selectOption("#friend-color", "white");
  await first.click("#create-friend");
  await first.waitForSelector("#invite:not([hidden])");
  const link = await first.locator("#invite-link").inputValue();

  await rival.goto(link);
  await rival.waitForSelector("#join-box:not([hidden])");
  await rival.click("#join");
  await rival.waitForSelector("#join-box", { state: "hidden" });

  // The second browser: a spectator until it signs in to the account.
  await second.goto(link);
  await second.waitForSelector("#board .sq");
  await second.waitForFunction(() => document.getElementById("watchers").textContent.includes("You are watching"));
  await account(second, name, "#account-signin");
  await second.goto(link);
  await second.waitForSelector("#board .sq");
  await second.waitForFunction(() => /White \(you\)/.test(document.querySelector("#player-bottom .name").textContent));
  assert.equal(await second.locator("#resign").isVisible(), true);

  // White's first move from the second browser reaches the first (and
  // the rival) live; the rival answers; the first browser plays on.
  await clickMove(second, "e2", "e4", 1, [second, first, rival]);
  await clickMove(rival, "e7", "e5", 2, [rival, first, second]);
  await clickMove(first, "g1", "f3", 3, [first, second, rival]);
  await second.screenshot({ path: join(SHOTS, "seats-second-browser.png") });

  // Signed out, the second browser watches: Black moves, and White's
  // pieces no longer answer its clicks.
  await second.click("#account-signout");
  await second.waitForSelector("#account-open:visible");
  await clickMove(rival, "b8", "c6", 4, [rival, first]);
  await second.goto(link);
  await second.waitForSelector("#board .sq");
  await waitMoves(second, 4);
  await second.waitForFunction(() => document.getElementById("watchers").textContent.includes("You are watching"));
  await square(second, "f1").click();
  assert.equal(await second.locator(".sq.target").count(), 0);

  assert.deepEqual([...firstErrors, ...secondErrors, ...rivalErrors], []);
  for (const p of [first, second, rival]) await p.close();
});
