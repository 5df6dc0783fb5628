// Accounts in the page (issue 42, item 1): the header's control signs up,
// stays signed in across a reload, signs out and signs in again; a wrong
// password is shown in the form. Screenshots of the header and the form at
// 375x667 and 1280x800 (into SPRINGBOARD_SHOTS when set, else
// e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

async function signedInAs(page) {
  const name = page.locator("#account-name");
  return (await name.isVisible()) ? await name.textContent() : null;
}

test("sign up, reload, sign out, sign in from the header", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page, errors } = await openTab(env.browser);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.goto(env.server.url);
    await page.waitForSelector("#account-open:visible");
    await page.screenshot({ path: join(SHOTS, `accounts-anonymous-${w}x${h}.png`) });
  }
  const name = `Player_${Date.now() % 100000}`;
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.screenshot({ path: join(SHOTS, "accounts-form-1280x800.png") });
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
  assert.equal(await signedInAs(page), name);
  assert.equal(await page.locator("#account-dialog[open]").count(), 0);
  // The session is a cookie the page cannot read.
  assert.equal(await page.evaluate(() => document.cookie.includes("sb_session")), false);

  // Still signed in after a reload, at both sizes.
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.reload();
    await page.waitForSelector("#account-name:visible");
    assert.equal(await signedInAs(page), name);
    await page.screenshot({ path: join(SHOTS, `accounts-signed-in-${w}x${h}.png`) });
  }

  await page.click("#account-signout");
  await page.waitForSelector("#account-open:visible");
  assert.equal(await signedInAs(page), null);
  await page.reload();
  await page.waitForSelector("#account-open:visible");
  assert.equal(await signedInAs(page), null);

  // A wrong password is said in the form; the right one signs in.
  await page.click("#account-open");
  await page.fill("#account-user", name.toLowerCase());
  await page.fill("#account-password", "not the password");
  await page.click("#account-signin");
  await page.waitForSelector("#account-error:visible");
  assert.equal(await page.locator("#account-error").textContent(), "wrong username or password");
  await page.setViewportSize({ width: 375, height: 667 });
  await page.screenshot({ path: join(SHOTS, "accounts-error-375x667.png") });
  await page.fill("#account-password", "a good password");
  await page.click("#account-signin");
  await page.waitForSelector("#account-name:visible");
  assert.equal(await signedInAs(page), name);
  assert.deepEqual(errors, []);
  await page.close();
});
