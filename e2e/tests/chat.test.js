// Game chat (issue 42, item 7): two players and a spectator, each in a
// browser of their own. The players' lines reach the other player live
// and never the spectator; the spectator's reach no player; `<b>` is
// shown as text. Screenshots of a player's page at 375x667 and 1280x800
// (into SPRINGBOARD_SHOTS when set, else e2e/screenshots), where the
// board stays in view as lines come. Then one player blocks the other
// from the player page: the blocked's lines are hidden from the blocker.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab, noSideScroll, boardRect } from "./harness.js";

const env = setUp({ browsers: 3 });
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;

async function signUp(page, name) {
  await page.goto(env.server.url);
  // The button may be there before the page's modules have wired it.
  for (let i = 0; ; i++) {
    await page.click("#account-open");
    try {
      await page.waitForSelector("#account-dialog[open]", { timeout: 3000 });
      break;
    } catch (err) {
      if (i === 5) throw err;
    }
  }
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
}

/** Writes `text` in the page's chat and waits until it is shown there. */
async function say(page, text) {
  await page.fill("#chat-text", text);
  await page.click("#chat-send");
  await waitLine(page, text);
}

async function waitLine(page, text) {
  await page.waitForFunction(
    (t) => [...document.querySelectorAll("#chat-lines .chat-text")].some((e) => e.textContent === t),
    text,
    { timeout: 5000 },
  );
}

const lines = (page) => page.$$eval("#chat-lines .chat-text", (els) => els.map((e) => e.textContent));

test("players and a spectator chat in their own rooms, live, as text", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  const { page: C, errors: errorsC } = await openTab(env.browsers[2]);
  await signUp(A, `Alice_${suffix}`);
  await signUp(B, `Bob_${suffix}`);
  await signUp(C, `Carol_${suffix}`);

  await A.waitForSelector("#create-friend");
  await A.selectOption("#friend-color", "white");
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  await A.waitForSelector("#chat:not([hidden])");
  assert.equal(await A.locator("#chat-title").innerText(), "Chat with your opponent");

  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await B.waitForSelector("#join-box", { state: "hidden" });
  await B.waitForFunction(() => document.getElementById("chat-title").textContent === "Chat with your opponent");

  const game = new URL(link).pathname;
  await C.goto(new URL(game, env.server.url).href);
  await C.waitForSelector("#chat:not([hidden])");
  assert.equal(await C.locator("#chat-title").innerText(), "Spectators' chat");
  await C.waitForSelector("#chat-form:visible");
  // Sockets open.
  await new Promise((r) => setTimeout(r, 300));

  await say(A, "<b>good luck</b>");
  await waitLine(B, "<b>good luck</b>");
  assert.equal(await B.locator("#chat-lines b").count(), 0, "HTML is shown as text");
  await say(C, "a spectator's line");
  await say(B, "thanks");
  await waitLine(A, "thanks");
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await lines(A), ["<b>good luck</b>", "thanks"]);
  assert.deepEqual(await lines(B), ["<b>good luck</b>", "thanks"]);
  assert.deepEqual(await lines(C), ["a spectator's line"]);
  // A line too long for the room is refused with the server's reason.
  await A.fill("#chat-text", "x".repeat(140));
  await A.evaluate(() => {
    const input = /** @type {HTMLInputElement} */ (document.getElementById("chat-text"));
    input.removeAttribute("maxlength");
    input.value += "y";
  });
  await A.click("#chat-send");
  await A.waitForFunction(() => /at most 140/.test(document.getElementById("chat-error").textContent));

  // A reload reads the history.
  await C.reload();
  await waitLine(C, "a spectator's line");

  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await B.setViewportSize({ width: w, height: h });
    await B.evaluate(() => window.scrollTo(0, 0));
    const before = await boardRect(B);
    await say(A, `at ${w}`);
    await waitLine(B, `at ${w}`);
    assert.equal(await B.evaluate(() => window.scrollY), 0, "a line does not scroll the page");
    const after = await boardRect(B);
    assert.equal(after.top, before.top, "the board stays where it was");
    assert.ok(after.bottom <= h, `the board is on the screen at ${w}x${h}`);
    await noSideScroll(B);
    await B.screenshot({ path: join(SHOTS, `chat-${w}x${h}.png`) });
    await B.locator("#chat").scrollIntoViewIfNeeded();
    await B.screenshot({ path: join(SHOTS, `chat-panel-${w}x${h}.png`) });
  }

  // Alice blocks Bob from his player page: his lines are hidden from her
  // from then on, and her own page lists him.
  const bob = `Bob_${suffix}`;
  await A.setViewportSize({ width: 375, height: 667 });
  await A.goto(new URL(`/@/${bob}`, env.server.url).href);
  await A.waitForSelector("#player-rel:not([hidden])");
  assert.equal(await A.locator("#player-block").innerText(), "Block");
  await A.click("#player-block");
  await A.waitForFunction(() => document.getElementById("player-block").textContent === "Unblock");
  await A.screenshot({ path: join(SHOTS, "chat-block-375x667.png") });
  await A.goto(new URL(`/@/Alice_${suffix}`, env.server.url).href);
  await A.waitForSelector("#player-blocks:not([hidden])");
  assert.deepEqual(await A.$$eval("#player-blocks-list a", (els) => els.map((e) => e.textContent)), [bob]);
  await A.goto(new URL(game, env.server.url).href);
  await A.waitForSelector("#chat:not([hidden])");
  await waitLine(A, "<b>good luck</b>");
  await new Promise((r) => setTimeout(r, 300));
  await say(B, "a blocked line");
  await say(C, "still spectating");
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(!(await lines(A)).includes("a blocked line"), "a blocked author's line is hidden");
  assert.ok(!(await lines(A)).includes("thanks"), "and so are the earlier ones");
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
  assert.deepEqual(errorsC, []);
});
