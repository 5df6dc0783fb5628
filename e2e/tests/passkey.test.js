// Passkeys in the page (issue 42, item 1): through Chromium's virtual
// authenticator (DevTools protocol `WebAuthn`, a CTAP2 authenticator with
// resident keys and user verification), an account made with a password
// adds a passkey from the header's "Passkeys" dialog, signs out, and signs
// in with the passkey alone (no name typed): the account's name is shown.
// The page is opened as http://localhost:PORT, the relying party of a
// server started without --public-url (a passkey needs https or
// localhost). Screenshots of the dialog with the passkey at 375x667 and
// 1280x800 (into SPRINGBOARD_SHOTS when set, else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab } from "./harness.js";

const env = setUp();
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

test("add a passkey, sign out, sign in with the passkey alone", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page, errors } = await openTab(env.browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const site = `http://localhost:${env.server.port}/`;
  await page.goto(site);
  await page.waitForSelector("#account-open:visible");
  // Signed out: no "Passkeys" button; the sign-in form offers a passkey.
  assert.equal(await page.locator("#account-passkeys-open").isVisible(), false);

  const name = `Key_${Date.now() % 100000}`;
  await page.click("#account-open");
  await page.waitForSelector("#account-passkey-signin:visible");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-passkeys-open:visible");

  await page.click("#account-passkeys-open");
  await page.waitForSelector("#passkeys-dialog[open]");
  await page.waitForSelector("#passkeys-list li.hint");
  assert.equal(await page.locator("#passkeys-list").textContent(), "No passkeys yet.");
  await page.fill("#passkeys-name", "this laptop");
  await page.click("#passkeys-add");
  await page.waitForSelector("#passkeys-list li button");
  assert.match(await page.locator("#passkeys-list li").first().textContent(), /^this laptop \(added .*, used never\)/);
  assert.equal(await page.locator("#passkeys-error").isVisible(), false);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `passkeys-${w}x${h}.png`) });
  }
  await page.click("#passkeys-close");

  // Signed out, then in with the passkey alone.
  // Signing out reloads the page: the dialog is opened on the new one.
  await Promise.all([page.waitForEvent("load"), page.click("#account-signout")]);
  await page.waitForSelector("#account-open:visible");
  assert.equal(await page.locator("#account-name").isVisible(), false);
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: join(SHOTS, `passkeys-signin-${w}x${h}.png`) });
  }
  await page.click("#account-passkey-signin");
  await page.waitForSelector("#account-name:visible");
  assert.equal(await page.locator("#account-name").textContent(), name);
  assert.equal(await page.locator("#account-dialog[open]").count(), 0);
  // The session holds across a reload, and the passkey shows its use.
  await page.reload();
  await page.waitForSelector("#account-name:visible");
  await page.click("#account-passkeys-open");
  await page.waitForSelector("#passkeys-list li button");
  assert.doesNotMatch(await page.locator("#passkeys-list li").first().textContent(), /used never/);

  // Removed, it signs in no more.
  await page.click("#passkeys-list li button");
  await page.waitForSelector("#passkeys-list li.hint");
  await page.click("#passkeys-close");
  // Signing out reloads the page: the dialog is opened on the new one.
  await Promise.all([page.waitForEvent("load"), page.click("#account-signout")]);
  await page.waitForSelector("#account-open:visible");
  await page.click("#account-open");
  await page.click("#account-passkey-signin");
  await page.waitForSelector("#account-error:visible");
  assert.equal(await page.locator("#account-error").textContent(), "this passkey was not accepted");
  assert.equal(await page.locator("#account-name").isVisible(), false);

  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId });
  assert.deepEqual(errors, []);
  await page.close();
});

test("no passkey buttons where the browser has no WebAuthn", async () => {
  const { page, errors } = await openTab(env.browser);
  await page.addInitScript(() => {
    // @ts-ignore: a browser without WebAuthn.
    delete window.PublicKeyCredential;
  });
  await page.goto(`http://localhost:${env.server.port}/`);
  await page.waitForSelector("#account-open:visible");
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  assert.equal(await page.locator("#account-passkey-signin").isVisible(), false);
  await page.fill("#account-user", `NoKey_${Date.now() % 100000}`);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
  assert.equal(await page.locator("#account-passkeys-open").isVisible(), false);
  assert.deepEqual(errors, []);
  await page.close();
});
