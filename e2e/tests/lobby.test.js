// The lobby (issue 42, item 3): two people sign up in separate browsers;
// one posts an open rated Trampoline Chess challenge, the other sees it
// appear live and joins it from the lobby, both pages go to the game,
// they play to a result (a resignation) and both ratings change. Then an
// anonymous casual challenge, accepted by another anonymous visitor.
// Screenshots of the lobby at 375x667 and 1366x768 (into SPRINGBOARD_SHOTS
// when set, else e2e/screenshots).

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

const rows = (page) => page.locator("#lobby-table tbody tr");

test("a rated Trampoline Chess challenge is posted, seen live, joined and played", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const alice = `Alice_${suffix}`;
  const bob = `Bob_${suffix}`;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  await signUp(A, alice);
  await signUp(B, bob);
  // Who is online: both, on both pages.
  await B.waitForFunction((n) => document.querySelector("#lobby-online").textContent.includes(n), alice);
  assert.equal(await rows(B).count(), 0);

  await A.waitForSelector("#lobby-rated-label:visible");
  await A.selectOption("#lobby-variant", "trampoline");
  await A.selectOption("#lobby-clock", "1"); // 3+2
  await A.check("#lobby-rated");
  await A.click("#lobby-post");
  await A.waitForSelector("#lobby-table tbody tr.mine");
  assert.match(await rows(A).first().innerText(), /Cancel/);

  // B sees it appear without reloading.
  await B.waitForSelector("#lobby-table tbody tr");
  const row = await rows(B).first().innerText();
  assert.match(row, /Trampoline Chess/);
  assert.match(row, /3\+2/);
  assert.match(row, /Rated/);
  assert.ok(row.includes(`${alice} (1500?)`), row);
  for (const [w, h] of [[375, 667], [1366, 768]]) {
    await B.setViewportSize({ width: w, height: h });
    await B.locator("#lobby").scrollIntoViewIfNeeded();
    await B.screenshot({ path: join(SHOTS, `lobby-${w}x${h}.png`) });
  }
  await B.setViewportSize({ width: 1366, height: 768 });

  await rows(B).first().locator("button", { hasText: "Join" }).click();
  // Both pages go to the game.
  await B.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await A.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  assert.equal(new URL(A.url()).pathname, new URL(B.url()).pathname);
  const id = new URL(A.url()).pathname.split("/").pop();
  const game = await A.evaluate(async (g) => (await (await fetch(`/api/games/${g}`)).json()), id);
  assert.equal(game.variant, "trampoline");
  assert.equal(game.rated, true);
  assert.equal(game.status, "playing");
  const white = game.you === "white" ? A : B;
  const black = white === A ? B : A;
  await playByApi(white, ["e2e4"]);
  await black.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  await playByApi(black, ["e7e5"]);
  await white.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  await black.click("#resign");
  await black.click("#resign-yes");
  for (const page of [A, B]) {
    await page.waitForFunction(() => /\(1500\? [+\u2212]\d+\)/.test(document.body.textContent));
  }
  // Both ratings moved, as the API says.
  for (const name of [alice, bob]) {
    const perf = await A.evaluate(
      async (n) => (await (await fetch(`/api/user/${n}`)).json()).perfs.trampoline,
      name,
    );
    assert.equal(perf.games, 1, name);
    assert.notEqual(perf.rating, 1500, name);
  }
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
  await A.close();
  await B.close();
});

test("an anonymous casual challenge is joined by another visitor", async () => {
  // Signed out: the browsers forget the accounts of the test before.
  for (const b of env.browsers) await b.context.clearCookies();
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  await A.goto(env.server.url);
  await B.goto(env.server.url);
  await A.waitForSelector("#lobby-post");
  assert.equal(await A.locator("#lobby-rated-label").isVisible(), false);
  await A.selectOption("#lobby-variant", "chess");
  await A.click("#lobby-post");
  await A.waitForSelector("#lobby-table tbody tr.mine");
  await B.waitForFunction(() => document.querySelectorAll("#lobby-table tbody tr:not(.mine)").length > 0);
  const row = B.locator("#lobby-table tbody tr", { hasText: "Anonymous" }).last();
  assert.match(await row.innerText(), /Casual/);
  // The author's socket holds it: still there after the grace time.
  await B.waitForTimeout(6500);
  assert.ok((await B.locator("#lobby-table tbody tr", { hasText: "Anonymous" }).count()) > 0);
  await row.locator("button", { hasText: "Join" }).click();
  await B.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  await A.waitForURL(/\/g\/[A-Za-z0-9]+$/);
  assert.equal(new URL(A.url()).pathname, new URL(B.url()).pathname);
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
  await A.close();
  await B.close();
});
