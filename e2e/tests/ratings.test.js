// Rated games in the page (issue 42, item 5): two people sign up in
// separate browsers; one ticks "Rated" on "Play a friend", the other joins
// by the link; they play to a result and both pages show each player's
// name, rating and its change. Screenshots of the friend card and of the
// ended game at 375x667 and 1280x900 (into SPRINGBOARD_SHOTS when set,
// else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab, playByApi } from "./harness.js";

const env = setUp({ browsers: 2 });
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

async function signUp(page, name) {
  await page.goto(env.server.url);
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
}

/** The text of the player box of `color` ("white" or "black"). */
async function playerName(page, color) {
  return page.evaluate((c) => {
    const box = [...document.querySelectorAll(".player")].find((b) => b.dataset.color === c);
    return box ? box.querySelector(".name").textContent : null;
  }, color);
}

test("a rated friend game moves both players' ratings, shown beside the names", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const alice = `Alice_${suffix}`;
  const bob = `Bob_${suffix}`;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);

  // Anonymous: no "Rated" box.
  await A.goto(env.server.url);
  await A.waitForSelector("#create-friend");
  assert.equal(await A.locator("#friend-rated-label").isVisible(), false);
  await signUp(A, alice);
  await A.waitForSelector("#friend-rated-label:visible");
  await A.check("#friend-rated");
  for (const [w, h] of [[375, 667], [1280, 900]]) {
    await A.setViewportSize({ width: w, height: h });
    await A.locator("#card-friend").scrollIntoViewIfNeeded();
    await A.screenshot({ path: join(SHOTS, `ratings-friend-card-${w}x${h}.png`) });
  }
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  assert.match(await playerName(A, "white"), new RegExp(`^${alice} \\(1500\\?\\) \\(you\\)$`));

  await signUp(B, bob);
  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await B.waitForSelector("#join-box", { state: "hidden" });
  assert.equal(await playerName(B, "black"), `${bob} (1500?) (you)`);
  await A.waitForFunction((n) => document.body.textContent.includes(n), bob);

  await playByApi(A, ["e2e4"]);
  await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  await playByApi(B, ["e7e5"]);
  await A.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  await A.click("#resign");
  await A.click("#resign-yes");

  // Both pages: the ratings before the game and the change.
  for (const page of [A, B]) {
    await page.waitForFunction(() => /\(1500\? [+\u2212]\d+\)/.test(document.body.textContent));
  }
  const white = await playerName(B, "white");
  const black = await playerName(B, "black");
  const change = (text) => {
    const m = /\(1500\? ([+\u2212])(\d+)\)/.exec(text);
    assert.ok(m, text);
    return (m[1] === "+" ? 1 : -1) * Number(m[2]);
  };
  assert.ok(change(white) < 0, white);
  assert.ok(change(black) > 0, black);
  // The API says the same.
  const perfs = await B.evaluate(async (n) => (await (await fetch(`/api/user/${n}`)).json()).perfs.chess, bob);
  assert.equal(perfs.games, 1);
  assert.equal(perfs.rating, 1500 + change(black));
  for (const [w, h] of [[375, 667], [1280, 900]]) {
    await B.setViewportSize({ width: w, height: h });
    await B.screenshot({ path: join(SHOTS, `ratings-ended-${w}x${h}.png`), fullPage: w < 500 });
  }
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
  await A.close();
  await B.close();
});
