// Personal API tokens in the page (issue 42, item 9; docs/api.md): signed
// in, the header's "API" button opens the tokens dialog; a token made
// there is shown once and works as a Bearer token; revoked, it is gone
// and refused. Screenshots of the dialog at 375x667 and 1280x800 (into
// SPRINGBOARD_SHOTS when set, else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

test("make, use and revoke a token from the header", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page, errors } = await openTab(env.browser);
  await page.goto(env.server.url);
  await page.waitForSelector("#account-open:visible");
  // Signed out: no tokens button.
  assert.equal(await page.locator("#account-tokens-open").isVisible(), false);
  const name = `Tok_${Date.now() % 100000}`;
  await page.click("#account-open");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-tokens-open:visible");

  await page.click("#account-tokens-open");
  await page.waitForSelector("#tokens-dialog[open]");
  await page.waitForSelector("#tokens-list li");
  assert.equal(await page.locator("#tokens-list").textContent(), "No tokens yet.");
  await page.fill("#tokens-description", "my board");
  await page.click("#tokens-create");
  await page.waitForSelector("#tokens-new:visible");
  const token = await page.locator("#tokens-value").textContent();
  assert.match(token, /^sbp_[0-9A-Za-z]{32}$/);
  await page.waitForSelector("#tokens-list li button");
  assert.match(await page.locator("#tokens-list li").first().textContent(), /^my board \(made /);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `tokens-${w}x${h}.png`) });
  }

  // The token is the account's through the API.
  const bearer = { Authorization: `Bearer ${token}` };
  const me = await fetch(`${env.server.url}api/account`, { headers: bearer });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).username, name);

  await page.click("#tokens-list li button");
  await page.waitForSelector("#tokens-list li.hint");
  const after = await fetch(`${env.server.url}api/account`, { headers: bearer });
  assert.equal(after.status, 401);
  assert.deepEqual(await after.json(), { error: "No such token" });
  await page.click("#tokens-close");
  assert.equal(await page.locator("#tokens-dialog[open]").count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
