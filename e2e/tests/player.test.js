// The player page and the leaderboards (issue 42, item 2): two people sign
// up in separate browsers and play a rated game to a result; the loser's
// name on the game page links to the player page, which shows the new
// rating, the counts, a drawn chart with one point and the game; more
// rated games (through the API) settle both ratings, and the leaderboard
// lists the two players, each name a link to the page. Unknown and
// hostile names show "No such player", as text. Screenshots of the player
// page and the leaderboard at 375x667 and 1366x768 (into SPRINGBOARD_SHOTS
// when set, else e2e/screenshots).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, setUp, openTab, playByApi } from "./harness.js";

const env = setUp({ browsers: 2 });
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;
const SIZES = [
  [375, 667],
  [1366, 768],
];

async function signUp(page, name) {
  await page.goto(env.server.url);
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
}

/** Runs `fetch(url, {method, body})` in the page: [status, json]. */
async function call(page, method, url, body) {
  return page.evaluate(
    async ([m, u, b]) => {
      const init = { method: m, headers: {} };
      if (b !== undefined) {
        init.headers["content-type"] = "application/json";
        init.body = JSON.stringify(b);
      }
      const r = await fetch(u, init);
      return [r.status, await r.json()];
    },
    [method, url, body],
  );
}

/** A rated chess game of `white`'s page joined by `black`'s, to a result
 * (`loser` resigns after 1. e4 e5), all through the API. */
async function ratedGameByApi(white, black, loser) {
  const [s1, g] = await call(white, "POST", "/api/games", {
    variant: "chess",
    mode: "friend",
    rated: true,
    clock: { initial: 300, increment: 2 },
  });
  assert.equal(s1, 201, JSON.stringify(g));
  const join = `/api/games/${g.id}/join?invite=${g.invite}`;
  const [s2, j] = await call(black, "POST", join, {});
  assert.equal(s2, 200, JSON.stringify(j));
  for (const [page, move, ply] of [
    [white, "e2e4", 0],
    [black, "e7e5", 1],
  ]) {
    const [s, v] = await call(page, "POST", `/api/games/${g.id}/move`, { move, ply });
    assert.equal(s, 200, JSON.stringify(v));
  }
  const [s3, r] = await call(loser === "white" ? white : black, "POST", `/api/games/${g.id}/resign`, {});
  assert.equal(s3, 200, JSON.stringify(r));
}

/** What the player page's chart shows: the points it says it drew, its
 * canvas's drawn pixels, and those of the chess line's colour. */
async function chart(page) {
  return page.evaluate(() => {
    const box = document.getElementById("player-chart");
    const canvas = box.querySelector("canvas");
    let inked = 0;
    // Pixels of the chess line's colour (chart.js: #2f6fb5): the series
    // itself, not only the axes and the grid.
    let line = 0;
    if (canvas && canvas.width > 0 && canvas.height > 0) {
      const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < px.length; i += 4) {
        if (px[i + 3] !== 0) inked++;
        if (Math.abs(px[i] - 0x2f) < 24 && Math.abs(px[i + 1] - 0x6f) < 24 && Math.abs(px[i + 2] - 0xb5) < 24) line++;
      }
    }
    return { points: Number(box.dataset.points), canvas: !!canvas, inked, line };
  });
}

/** The player page's row of `game`: rating, rated games, played, won,
 * drawn, lost. */
async function perfRow(page, game) {
  return page.evaluate((g) => {
    const tr = document.querySelector(`#player-perfs tr[data-game="${g}"]`);
    return [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent);
  }, game);
}

test("the player page shows a rated game's rating, counts and chart, and the leaderboard lists the players", async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const alice = `Alice_${suffix}`;
  const bob = `Bob_${suffix}`;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);

  // A rated game in the page: Alice (White) resigns after 1. e4 e5.
  await signUp(A, alice);
  await A.check("#friend-rated");
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  await signUp(B, bob);
  await B.goto(link);
  await B.waitForSelector("#join-box:not([hidden])");
  await B.click("#join");
  await B.waitForSelector("#join-box", { state: "hidden" });
  await playByApi(A, ["e2e4"]);
  await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  await playByApi(B, ["e7e5"]);
  await A.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  await A.click("#resign");
  await A.click("#resign-yes");
  await B.waitForFunction(() => /\(1500\? [+\u2212]\d+\)/.test(document.body.textContent));

  // The seat's name links to the player page.
  const [, user] = await call(B, "GET", `/api/user/${alice}`);
  const rating = user.perfs.chess.rating;
  assert.ok(rating < 1500, String(rating));
  await B.click(`.player .name a[href="/@/${alice}"]`);
  await B.waitForFunction(() => document.getElementById("player-screen").dataset.loaded === "1");
  assert.equal(new URL(B.url()).pathname, `/@/${alice}`);
  assert.equal(await B.locator("#player-name").textContent(), alice);
  assert.match(await B.locator("#player-since").textContent(), /^Member since \d{4}-\d{2}-\d{2}$/);
  // Chess: the new rating (provisional), 1 rated game, played 1, lost 1.
  assert.deepEqual(await perfRow(B, "chess"), [`${rating}?`, "1", "1", "0", "0", "1"]);
  assert.deepEqual(await perfRow(B, "hopchess"), ["1500?", "0", "0", "0", "0", "0"]);
  // The chart: one point, drawn.
  const one = await chart(B);
  assert.deepEqual([one.points, one.canvas], [1, true]);
  assert.ok(one.inked > 100, `the chart's canvas is drawn (${one.inked} pixels)`);
  assert.ok(one.line > 10, `the chess point is drawn (${one.line} pixels)`);
  assert.equal(await B.locator("#player-chart-empty").isVisible(), false);
  assert.match(await B.locator("#player-chart").textContent(), /Chess/);
  // The games: the one game, both names links to their pages.
  const rows = B.locator("#player-games tbody tr");
  assert.equal(await rows.count(), 1);
  assert.equal(await rows.first().locator(`td.white a[href="/@/${alice}"]`).count(), 1);
  assert.equal(await rows.first().locator(`td.black a[href="/@/${bob}"]`).count(), 1);
  assert.match(await rows.first().locator("td.result").textContent(), /0-1/);
  // The filter: none ongoing, none in Hop Chess, one finished chess game.
  await B.selectOption("#player-status", "ongoing");
  await B.waitForSelector("#player-games-empty:visible");
  await B.selectOption("#player-status", "finished");
  await B.waitForSelector("#player-games tbody tr");
  await B.selectOption("#player-game", "hopchess");
  await B.waitForSelector("#player-games-empty:visible");
  await B.selectOption("#player-game", "chess");
  await B.waitForSelector("#player-games tbody tr");
  assert.equal(await rows.count(), 1);
  // My own name in the header links to my page.
  await B.click("#account-name");
  await B.waitForFunction((n) => document.getElementById("player-name").textContent === n, bob);
  assert.deepEqual((await perfRow(B, "chess")).slice(1), ["1", "1", "1", "0", "0"]);

  // The site's games list names the seats by their accounts, as links.
  await B.click("#nav-games");
  await B.waitForFunction(() => document.getElementById("games-screen").dataset.loaded);
  await B.click('#games-screen .tabs button[data-list="recent"]');
  await B.waitForFunction(() => document.getElementById("games-screen").dataset.loaded === "recent");
  assert.equal(await B.locator(`#games-table td.white a[href="/@/${alice}"]`).count(), 1);
  assert.equal(await B.locator(`#games-table td.black a[href="/@/${bob}"]`).count(), 1);

  // The leaderboard leaves provisional ratings out: not yet listed.
  await B.click("#nav-players");
  await B.waitForFunction(() => document.getElementById("leaders").dataset.loaded === "1");
  assert.equal(await B.locator(`#leaders a[href="/@/${alice}"]`).count(), 0);

  // More rated games, won in turn, until both ratings are established.
  let games = 1;
  for (let i = 0; i < 17; i++) {
    const [, a] = await call(A, "GET", `/api/user/${alice}`);
    const [, b] = await call(A, "GET", `/api/user/${bob}`);
    if (!a.perfs.chess.prov && !b.perfs.chess.prov) break;
    await ratedGameByApi(A, B, i % 2 === 0 ? "black" : "white");
    games++;
  }
  const [, a] = await call(A, "GET", `/api/user/${alice}`);
  assert.equal(a.perfs.chess.prov, false, `after ${games} games: ${JSON.stringify(a.perfs.chess)}`);
  assert.equal(a.perfs.chess.games, games);

  // The leaderboard lists both, best first, each name a link.
  await B.goto(`${env.server.url}player`);
  await B.waitForFunction(() => document.getElementById("leaders").dataset.loaded === "1");
  const listed = await B.locator('#leaders section[data-game="chess"] tbody tr td:nth-child(2) a').allTextContents();
  const [, top] = await call(B, "GET", "/api/player/top/10/chess");
  assert.deepEqual(listed, top.users.map((u) => u.username));
  assert.deepEqual([...listed].sort(), [alice, bob].sort());
  for (const [w, h] of SIZES) {
    await B.setViewportSize({ width: w, height: h });
    await B.screenshot({ path: join(SHOTS, `player-leaders-${w}x${h}.png`), fullPage: true });
  }
  await B.click(`#leaders a[href="/@/${alice}"]`);
  await B.waitForFunction(() => document.getElementById("player-screen").dataset.loaded === "1");
  assert.equal(await B.locator("#player-name").textContent(), alice);
  // The chart has a point per rated game, and the rating has no "?".
  const many = await chart(B);
  assert.equal(many.points, games);
  assert.ok(many.inked > 100);
  assert.ok(many.line > one.line, `the line is drawn (${many.line} pixels)`);
  assert.equal((await perfRow(B, "chess"))[0], String(a.perfs.chess.rating));
  assert.deepEqual((await perfRow(B, "chess")).slice(2), [String(games), ...(await wdl(B, alice))]);
  for (const [w, h] of SIZES) {
    await B.setViewportSize({ width: w, height: h });
    // The chart follows the width.
    await B.waitForFunction(() => {
      const c = document.querySelector("#player-chart canvas");
      return c && c.getBoundingClientRect().right <= window.innerWidth;
    });
    await B.screenshot({ path: join(SHOTS, `player-page-${w}x${h}.png`), fullPage: true });
  }

  // Unknown and hostile names: "No such player", the name as text.
  for (const name of ["nobody_here", '<img src=x onerror="window.hacked=1">']) {
    await B.goto(`${env.server.url}@/${encodeURIComponent(name)}`);
    await B.waitForFunction(() => document.getElementById("player-screen").dataset.loaded === "missing");
    assert.equal(await B.locator("#player-missing h2").textContent(), "No such player");
    assert.equal(await B.locator("#player-missing-name").textContent(), name);
    assert.equal(await B.locator("#player-screen img").count(), 0);
    assert.equal(await B.evaluate(() => /** @type {any} */ (window).hacked), undefined);
  }
  await B.setViewportSize({ width: 375, height: 667 });
  await B.screenshot({ path: join(SHOTS, "player-missing-375x667.png") });

  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
  await A.close();
  await B.close();
});

/** Won, drawn and lost of `name` in chess, from the API. */
async function wdl(page, name) {
  const [, c] = await call(page, "GET", `/api/user/${name}/counts`);
  const k = c.counts.chess;
  return [String(k.won), String(k.drawn), String(k.lost)];
}
