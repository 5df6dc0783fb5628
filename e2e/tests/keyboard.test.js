// The keyboard and screen readers (issue 11, item 13) in headless Chromium
// against the real server: squares take the focus, the arrow keys move it
// and Enter/Space pick and play; squares are labelled (name, man,
// trampoline, weak square); a move typed in SAN or long notation is read
// by the rules core and played in every game (a Hop Chess turn with its
// trampoline square, a Hoplit drop, a Jumping King jump and pass), its
// errors said next to the box; Home, End and the arrows in the move list.

import { test } from "node:test";
import assert from "node:assert/strict";
import { square, newLocalGame, playByApi, setUp, openTab } from "./harness.js";

const env = setUp();

async function openGame(variant, fen = null) {
  const { page, errors } = await openTab(env.browser);
  await newLocalGame(page, env.server.url, variant, fen);
  return { page, errors };
}

const focused = (page) => page.evaluate(() => document.activeElement.dataset.square || document.activeElement.id || document.activeElement.tagName);
const moveCount = (page) => page.locator("#moves button").count();

// Types a move in the box and waits until it is played.
async function typeMove(page, text) {
  const n = await moveCount(page);
  await page.fill("#move-text", text);
  await page.press("#move-text", "Enter");
  await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
  assert.equal(await page.locator("#move-text").inputValue(), "");
  assert.equal(await page.locator("#move-text-error").textContent(), "");
}

// Types a move that is refused; returns the reason shown beside the box.
async function typeRefused(page, text) {
  const n = await moveCount(page);
  await page.fill("#move-text", text);
  await page.press("#move-text", "Enter");
  await page.waitForFunction(() => document.getElementById("move-text-error").textContent !== "");
  assert.equal(await moveCount(page), n);
  // The reason stands right under the box.
  const box = await page.locator("#move-text").boundingBox();
  const why = await page.locator("#move-text-error").boundingBox();
  assert.ok(why.y >= box.y && why.y - (box.y + box.height) < 40, `the error is ${why.y - box.y}px below the box`);
  return page.locator("#move-text-error").textContent();
}

test("squares take the focus; the arrow keys move it, Enter and Space pick and play", async () => {
  const { page, errors } = await openGame("chess");
  // One square is in the tab order: the lower left one.
  const stop = page.locator('#board [tabindex="0"]');
  assert.equal(await stop.count(), 1);
  await stop.focus();
  assert.equal(await focused(page), "a1");
  for (const key of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp"]) await page.keyboard.press(key);
  assert.equal(await focused(page), "e2");
  assert.equal(await square(page, "e2").getAttribute("aria-label"), "e2, white pawn");
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-square="e2"].selected');
  assert.equal(await focused(page), "e2", "the focus stays on the picked square");
  assert.equal(await square(page, "e2").getAttribute("aria-label"), "e2, white pawn, picked");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowUp");
  assert.equal(await focused(page), "e4");
  assert.equal(await square(page, "e4").getAttribute("aria-label"), "e4, empty, move here");
  await page.keyboard.press(" ");
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  assert.equal(await square(page, "e4").getAttribute("data-piece"), "P");
  assert.equal(await focused(page), "e4");
  // The board's edge stops the keyboard; the arrows never leave the board
  // for the move list.
  for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowUp");
  assert.equal(await focused(page), "e8");
  assert.equal(await square(page, "e8").getAttribute("aria-label"), "e8, black king");
  assert.equal(await moveCount(page), 1);
  assert.deepEqual(errors, []);
  await page.close();
});

test("Jumping King: the keyboard skips the holes, and the weak squares and trampolines are labelled (J1, J3, T2)", async () => {
  const { page, errors } = await openGame("jumpingking");
  await page.locator('#board [tabindex="0"]').focus();
  assert.equal(await focused(page), "a1");
  assert.equal(await square(page, "a1").getAttribute("aria-label"), "a1, white king, White's weak square");
  assert.equal(await square(page, "f8").getAttribute("aria-label"), "f8, black king, Black's weak square");
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(page), "a1", "b1-f1 are no squares");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowRight");
  assert.equal(await focused(page), "b2");
  assert.deepEqual(errors, []);
  await page.close();
  const t = await openGame("trampoline");
  await playByApi(t.page, ["@h5"]);
  assert.equal(await square(t.page, "h5").getAttribute("aria-label"), "h5, White's trampoline");
  assert.deepEqual(t.errors, []);
  await t.page.close();
});

test("a typed move is played in SAN or long notation; errors say why, next to the box", async () => {
  const { page, errors } = await openGame("chess");
  await typeMove(page, "Nf3");
  assert.equal(await square(page, "f3").getAttribute("data-piece"), "N");
  await typeMove(page, "e7e5");
  assert.match(await typeRefused(page, "e4 e5"), /^Malformed move 'e4 e5'\. Type a move like \w+ or \w+\.$/);
  assert.match(await typeRefused(page, "Nf5"), /^Illegal move 'Nf5' in this position\. Type a move like \w+ or \w+\.$/);
  assert.match(await typeRefused(page, "  "), /^Type a move first, like \w+ or \w+\.$/);
  // An earlier position of a game at one screen: the typed move starts a
  // side line, as a clicked one does.
  await page.click("#nav-start");
  await page.waitForFunction(() => /^Viewing|^Side line/.test(document.getElementById("status").textContent));
  await page.fill("#move-text", "d4");
  await page.press("#move-text", "Enter");
  await page.waitForSelector(".moves li.variation");
  assert.equal(await page.locator(".moves li.variation button[data-line]").textContent(), "d4");
  assert.deepEqual(errors, []);
  await page.close();

  const amb = await openGame("chess", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
  assert.equal(await typeRefused(amb.page, "Rd1"), "Ambiguous move 'Rd1': it could be Rad1 (a1d1), Rhd1 (h1d1).");
  await typeMove(amb.page, "Rhd1");
  assert.deepEqual(amb.errors, []);
  await amb.page.close();
});

test("typed moves in every game: a Hop Chess turn with its square, a Hoplit drop, a Jumping King jump and pass (H2, L4, J4, J6)", async () => {
  const hop = await openGame("hopchess");
  await typeMove(hop.page, "e4");
  const half = await typeRefused(hop.page, "e5");
  assert.match(half, /only half a Hop Chess turn/);
  assert.match(half, /like 'e5 \w\d'/);
  await typeMove(hop.page, "e5 e6");
  await typeMove(hop.page, "g1f3@d4");
  await typeMove(hop.page, "Nc6@d5");
  assert.deepEqual(
    await hop.page.locator("#moves button").evaluateAll((bs) => bs.map((b) => b.title)),
    ["e2e4", "e7e5@e6", "g1f3@d4", "b8c6@d5"],
  );
  assert.deepEqual(hop.errors, []);
  await hop.page.close();

  const hoplit = await openGame("hoplit");
  await playByApi(hoplit.page, ["e2e4", "e7e5", "g1f3", "b8c6"]);
  await typeMove(hoplit.page, "H@g1");
  assert.equal(await square(hoplit.page, "g1").getAttribute("data-piece"), "H");
  assert.deepEqual(hoplit.errors, []);
  await hoplit.page.close();

  const jk = await openGame("jumpingking");
  await typeMove(jk.page, "Kc2");
  await typeMove(jk.page, "f8e6");
  await typeMove(jk.page, "Ke3<B");
  assert.equal(await square(jk.page, "c2").getAttribute("data-piece"), "B");
  assert.deepEqual(jk.errors, []);
  await jk.page.close();

  const stuck = await openGame("jumpingking", "5k2/8/8/8/8/8/2K5/8[RBrrbbnnppp] w j 0 5");
  await typeMove(stuck.page, "--");
  assert.equal(await stuck.page.locator("#moves button").first().getAttribute("title"), "0000");
  assert.deepEqual(stuck.errors, []);
  await stuck.page.close();
});

test("the move list: Home, End and the arrow keys", async () => {
  const { page, errors } = await openGame("chess");
  await playByApi(page, ["e2e4", "e7e5", "g1f3", "b8c6"]);
  const current = () => page.evaluate(() => (document.querySelector("#moves button.current") || {}).textContent || null);
  await page.locator("#moves button").last().focus();
  await page.keyboard.press("Home");
  await page.waitForFunction(() => document.querySelector('[data-square="e2"]').dataset.piece === "P");
  assert.equal(await current(), null);
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction(() => (document.querySelector("#moves button.current") || {}).textContent === "e4");
  await page.keyboard.press("End");
  await page.waitForFunction(() => (document.querySelector("#moves button.current") || {}).textContent === "Nc6");
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => (document.querySelector("#moves button.current") || {}).textContent === "Nf3");
  // The keyboard is still in the list.
  assert.equal(await page.evaluate(() => document.getElementById("moves").contains(document.activeElement)), true);
  await page.keyboard.press("ArrowUp");
  await page.waitForFunction(() => (document.querySelector("#moves button.current") || {}).textContent === "e5");
  assert.deepEqual(errors, []);
  await page.close();
});
