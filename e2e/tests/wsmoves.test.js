// Moves over the game's socket both ways (issue 44, item 3): two browsers
// play a friend game by clicks; each move goes over the socket (no POST),
// and every page plays the moves it hears with the rules core in the
// browser, with no request for the game's view after its first load. A
// page whose socket was closed while a move was played catches up.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { openTab, routeGameSocket, setUp, square, SCREENSHOTS } from "./harness.js";

const env = setUp({ browsers: 2 });

// The game's reads (`GET /api/games/{id}`, any query) and posted moves a
// page makes from now on.
function countRequests(page) {
  const n = { views: 0, posts: 0 };
  page.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "GET" && /^\/api\/games\/\w+$/.test(path)) n.views++;
    if (r.method() === "POST" && /^\/api\/games\/\w+\/move$/.test(path)) n.posts++;
  });
  return n;
}

const rulesLoaded = (page) => page.waitForFunction(() => document.documentElement.dataset.rules === "wasm");
const live = (page) => page.waitForFunction(() => document.getElementById("conn").dataset.state === "live");

async function waitMoves(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n, { timeout: 10000 });
}

// `page` plays `uci` (a chess move: two clicks) and both pages show it.
async function move(page, other, uci, n) {
  await square(page, uci.slice(0, 2)).click();
  await square(page, uci.slice(2, 4)).click();
  for (const p of [page, other]) {
    await waitMoves(p, n);
    assert.equal(await p.locator("#moves button").nth(n - 1).getAttribute("title"), uci);
  }
}

test("two browsers play over the socket: no view is read after the first load, a page that missed a move catches up", async () => {
  const host = await openTab(env.browsers[0]);
  const guest = await openTab(env.browsers[1]);
  const A = host.page;
  const B = guest.page;
  const sockB = await routeGameSocket(B);
  await A.goto(env.server.url);
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", "chess");
  await A.selectOption("#friend-color", "white");
  await A.selectOption("#friend-clock", { label: "3+2" });
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await A.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  await B.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  for (const p of [A, B]) {
    await rulesLoaded(p);
    await live(p);
  }
  const a = countRequests(A);
  const b = countRequests(B);

  await move(A, B, "e2e4", 1);
  await move(B, A, "e7e5", 2);
  await move(A, B, "g1f3", 3);
  await move(B, A, "b8c6", 4);
  await move(A, B, "f1c4", 5);
  for (const p of [A, B]) assert.match(await p.locator("#status").textContent(), /Black to move/);
  assert.deepEqual(await B.locator("#moves button").allTextContents(), ["e4", "e5", "Nf3", "Nc6", "Bc4"]);
  assert.deepEqual({ a, b }, { a: { views: 0, posts: 0 }, b: { views: 0, posts: 0 } }, "a page read the game or posted a move");
  // Each page's moves were acked over its socket (B's two).
  assert.deepEqual(
    sockB.answers.map((m) => m.t),
    ["ack", "ack"],
  );
  await B.screenshot({ path: join(SCREENSHOTS, "wsmoves-guest.png") });

  // B's socket goes down after its move, and White's reply is missed.
  await move(B, A, "g8f6", 6);
  sockB.cut();
  await B.waitForFunction(() => document.getElementById("conn").dataset.state !== "live");
  await square(A, "d2").click();
  await square(A, "d3").click();
  await waitMoves(A, 7);
  await B.waitForTimeout(500);
  assert.equal(await B.locator("#moves button").count(), 6, "the cut page saw the move");
  sockB.restore();
  // Back: the page catches up (the server says its version is behind, or
  // its poll while the socket was down read the game).
  await waitMoves(B, 7);
  await live(B);
  assert.equal(await B.locator("#moves button").nth(6).getAttribute("title"), "d2d3");
  assert.ok(b.views >= 1, "the page caught up without reading the game");
  // And plays on over the socket.
  const before = b.views;
  await move(B, A, "f8c5", 8);
  assert.equal(b.views, before);
  assert.equal(b.posts, 0);
  assert.deepEqual([...host.errors, ...guest.errors], []);
  await A.close();
  await B.close();
});
