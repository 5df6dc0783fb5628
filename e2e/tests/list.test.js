// Issue 45, items 1, 4 and 5: a friend's invitation is private, the games
// list is one a player can use (it fits its box at every size, names are
// links, my side and whose move, boards and loaded games apart from the
// played ones, moves counted as moves, ½-½), and a loaded PGN keeps its
// tags. Screenshots of the list at four sizes go to SHOTS_DIR (default
// e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { mkdirSync } from "node:fs";
import { openTab, setUp, startBrowser, SCREENSHOTS } from "./harness.js";

const env = setUp({ browsers: 3 });
const SHOTS = process.env.SHOTS_DIR || SCREENSHOTS;

// A friend game of `variant` made by `page` on the first screen; its id and
// invitation link.
async function inviteFrom(page, variant) {
  await page.goto(env.server.url);
  await page.waitForSelector("#create-friend");
  await page.selectOption("#variant", variant);
  await page.selectOption("#friend-color", "white");
  await page.click("#create-friend");
  await page.waitForSelector("#invite:not([hidden])");
  const link = await page.locator("#invite-link").inputValue();
  const id = await page.evaluate(() => location.pathname.split("/")[2]);
  return { id, link };
}

test("a friend's invitation is private: listed nowhere public, and only its link takes the seat", async () => {
  const A = await openTab(env.browsers[0]);
  const { id, link } = await inviteFrom(A.page, "chess");
  assert.notEqual(new URL(link).search, "", "the invitation link carries a token");
  // A stranger: not in the Ongoing list, and the game's id alone offers no seat.
  const C = await openTab(env.browsers[2]);
  await showList(C.page, "ongoing");
  assert.equal(await C.page.locator(`#games-table tr[data-id="${id}"]`).count(), 0);
  await C.page.goto(new URL(`/g/${id}`, env.server.url).href);
  await C.page.waitForSelector("#join-box:not([hidden])");
  assert.equal(await C.page.locator("#join").isVisible(), false);
  assert.match(await C.page.locator("#join-text").textContent(), /invitation link/);
  const refused = await C.page.evaluate(async (gid) => (await fetch(`/api/games/${gid}/join`, { method: "POST" })).status, id);
  assert.equal(refused, 403);
  // The friend with the link joins, and the game is played.
  const B = await openTab(env.browsers[1]);
  await B.page.goto(link);
  await B.page.waitForSelector("#join:not([hidden])");
  await B.page.click("#join");
  await B.page.waitForSelector("#join-box", { state: "hidden" });
  await A.page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  assert.equal(await B.page.evaluate(() => location.search), "");
  assert.deepEqual([...A.errors, ...B.errors, ...C.errors], []);
  for (const t of [A, B, C]) await t.page.close();
});

const LOADED = `[Event "London"]
[Site "London ENG"]
[Date "1851.06.21"]
[Round "3"]
[White "Adolf Anderssen"]
[Black "Lionel Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 1-0
`;

// Loads `text` as a PGN from the text box of a new analysis board.
async function loadPgn(page, text) {
  await page.goto(env.server.url);
  await page.waitForSelector("#create-local");
  await page.selectOption("#variant", "chess");
  await page.click("#create-local");
  await page.waitForSelector("#board .sq");
  const path = await page.evaluate(() => location.pathname);
  await page.fill("#text", text);
  await page.click("#import-pgn");
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForSelector("#board .sq");
}

test("a loaded PGN keeps its players, event, place, date and result, shown and exported again", async () => {
  const { page, errors } = await openTab(env.browsers[0]);
  await loadPgn(page, LOADED);
  await page.waitForFunction(() => document.body.textContent.includes("Adolf Anderssen"));
  const names = await page.locator(".player .name").allTextContents();
  assert.deepEqual(names.sort(), ["Black: Lionel Kieseritzky", "White: Adolf Anderssen"]);
  const info = await page.locator("#game-info").textContent();
  for (const part of ["London", "London ENG", "1851.06.21"]) assert.ok(info.includes(part), info);
  await page.click("#export-pgn");
  await page.waitForFunction(() => document.getElementById("text").value.includes("[Event"));
  const text = await page.locator("#text").inputValue();
  for (const tag of ['[Event "London"]', '[Site "London ENG"]', '[Date "1851.06.21"]', '[White "Adolf Anderssen"]', '[Black "Lionel Kieseritzky"]', '[Result "1-0"]']) {
    assert.ok(text.includes(tag), `${tag} in ${text}`);
  }
  // Loading the same finished game again opens the first load.
  const first = await page.evaluate(() => location.pathname);
  await loadPgn(page, LOADED);
  assert.equal(await page.evaluate(() => location.pathname), first);
  assert.deepEqual(errors, []);
  await page.close();
});

// The rows of the games table, each cell by its class.
async function rows(page) {
  return page.locator("#games-table tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({ id: tr.dataset.id, ...Object.fromEntries([...tr.children].map((td) => [td.className, td.textContent])) })),
  );
}

async function showList(page, list) {
  await page.goto(new URL(`/games?list=${list}`, env.server.url).href);
  await page.waitForFunction((l) => document.getElementById("games-screen").dataset.loaded === l, list);
}

test("the games list: fits its box, names are links, my side and whose move, boards and loads apart", async () => {
  const A = await openTab(env.browsers[0]);
  const B = await openTab(env.browsers[1]);
  // A Jumping King game between friends, two moves played.
  const { id, link } = await inviteFrom(A.page, "jumpingking");
  await B.page.goto(link);
  await B.page.click("#join");
  await B.page.waitForSelector("#join-box", { state: "hidden" });
  const playFirst = async (page) =>
    page.evaluate(async (gid) => {
      const g = await (await fetch(`/api/games/${gid}`)).json();
      const r = await fetch(`/api/games/${gid}/move`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ move: g.legal[0].uci, ply: g.plies }),
      });
      return r.status;
    }, id);
  assert.equal(await playFirst(A.page), 200);
  assert.equal(await playFirst(B.page), 200);
  // An analysis board and a drawn loaded game of A's.
  await A.page.goto(env.server.url);
  await A.page.click("#create-local");
  await A.page.waitForSelector("#board .sq");
  const board = await A.page.evaluate(() => location.pathname.split("/")[2]);
  await loadPgn(A.page, '[Result "1/2-1/2"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n');
  const drawn = await A.page.evaluate(() => location.pathname.split("/")[2]);

  // Ongoing: the played game only, its name a link, whose move it is.
  await showList(A.page, "ongoing");
  let list = await rows(A.page);
  assert.ok(list.some((r) => r.id === id), JSON.stringify(list));
  assert.ok(!list.some((r) => r.id === board || r.id === drawn), JSON.stringify(list));
  const row = A.page.locator(`#games-table tr[data-id="${id}"]`);
  assert.equal(await row.locator("td.variant a").getAttribute("href"), `/g/${id}`);
  // My games: my side, whose move, Continue (not Watch), moves as moves.
  await showList(A.page, "mine");
  list = await rows(A.page);
  const mine = list.find((r) => r.id === id);
  assert.ok(mine, JSON.stringify(list));
  assert.match(mine.white, /\(you\)$/);
  assert.equal(mine.result, "Your move");
  assert.equal(mine.count, "1");
  assert.match(mine.links, /^Continue/);
  await showList(B.page, "mine");
  const theirs = (await rows(B.page)).find((r) => r.id === id);
  assert.match(theirs.black, /\(you\)$/);
  assert.equal(theirs.result, "White to move (your opponent)");
  // Boards and loaded games: their own tab, results as on the game page.
  await showList(A.page, "analysis");
  list = await rows(A.page);
  assert.deepEqual(list.map((r) => r.id).filter((x) => x === board || x === drawn).sort(), [board, drawn].sort());
  const draw = list.find((r) => r.id === drawn);
  assert.match(draw.result, /^½-½/);
  assert.equal(draw.count, "2");

  // The table fits its box at every size: nothing cut off, the date and
  // the links in view.
  mkdirSync(SHOTS, { recursive: true });
  for (const [w, h] of [[375, 667], [1280, 900], [1366, 768], [1920, 1080]]) {
    await A.page.setViewportSize({ width: w, height: h });
    for (const which of ["ongoing", "mine"]) {
      await showList(A.page, which);
      await A.page.waitForSelector(`#games-table tr[data-id="${id}"]`);
      const fit = await A.page.evaluate((gid) => {
        const wrap = document.querySelector("#games-screen .table-wrap");
        const tr = document.querySelector(`#games-table tr[data-id="${gid}"]`);
        const right = wrap.getBoundingClientRect().right;
        const out = [...tr.children].filter((td) => td.getBoundingClientRect().right > right + 1).map((td) => td.className);
        return { scroll: wrap.scrollWidth - wrap.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth, out };
      }, id);
      assert.deepEqual(fit, { scroll: 0, page: 0, out: [] }, `${which} at ${w}x${h}`);
      for (const cls of ["date", "links"]) assert.equal(await A.page.locator(`#games-table tr[data-id="${id}"] td.${cls}`).isVisible(), true, `${cls} at ${w}x${h}`);
      await A.page.screenshot({ path: join(SHOTS, `games-${which}-${w}x${h}.png`), fullPage: true });
    }
  }
  assert.deepEqual([...A.errors, ...B.errors], []);
  await A.page.close();
  await B.page.close();
});
