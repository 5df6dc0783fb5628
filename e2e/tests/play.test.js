// Games between browsers against the real play server: two browser
// profiles (two players, each with its own seat cookie) play through the
// invitation link while a third watches every move arrive live; the server
// is killed (SIGKILL) and restarted on the same data directory mid-game; a
// flag falls; an engine game survives a reload while the engine thinks;
// the games page lists the games. Every server gets a fresh temporary data
// directory.
//
// The games were checked with the rules core (the Hop Chess and Jumping
// King wins are those of variants.test.js: `springboard perft --variant V
// [--fen F] --moves "..." --depth 1` gives 0 moves after the last move).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startServer, square, SCREENSHOTS, setUp, openTab } from "./harness.js";

// Three profiles: two players and a spectator.
const env = setUp({ browsers: 3 });

async function openPage(browser, url) {
  const { page, errors } = await openTab(browser);
  await page.goto(url);
  return { page, errors };
}

const moveCount = (page) => page.locator("#moves button").count();

async function waitMoves(page, n, timeout = 10000) {
  await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n, { timeout });
}

async function waitStatus(page, re, timeout = 10000) {
  try {
    await page.waitForFunction(
      (src) => new RegExp(src).test(document.getElementById("status").textContent),
      re.source,
      { timeout },
    );
  } catch (err) {
    const shown = await page.locator("#status").textContent();
    const moves = await page.locator("#moves").textContent();
    throw new Error(`the status is "${shown}", not ${re} (moves: ${moves}): ${err.message}`);
  }
}

// Plays one move on `page` by its clicks (a square, {token}, {choose}),
// checks the server played `uci`, and waits until every page in `watchers`
// shows it too (live, through the socket).
async function clickMove(page, uci, steps, watchers = []) {
  const before = await moveCount(page);
  for (const step of steps) {
    if (typeof step === "string") await square(page, step).click();
    else if (step.token) await page.click(`.token.active[data-source="${step.token}"]`);
    else if (step.choose) {
      await page.waitForSelector("#chooser:not([hidden])");
      await page.click(`#chooser-options button[data-uci="${step.choose}"]`);
    }
  }
  await waitMoves(page, before + 1);
  assert.equal(await page.locator("#moves button").nth(before).getAttribute("title"), uci);
  for (const w of watchers) {
    await waitMoves(w, before + 1);
    assert.equal(await w.locator("#moves button").nth(before).getAttribute("title"), uci);
  }
}

// The invitation: `host` created a friend game; `guest` opens the link and
// joins; `watcher` opens it afterwards and only watches.
async function joinThrough(link, guest, watcher) {
  await guest.goto(link);
  await guest.waitForSelector("#join-box:not([hidden])");
  assert.equal(await guest.locator("#status").textContent(), "Waiting for a second player");
  await guest.click("#join");
  await guest.waitForSelector("#join-box", { state: "hidden" });
  if (watcher) {
    await watcher.goto(link);
    await watcher.waitForSelector("#board .sq");
    await watcher.waitForFunction(() => document.getElementById("watchers").textContent.includes("You are watching"));
    assert.equal(await watcher.locator("#join-box").isVisible(), false);
    for (const id of ["#resign", "#draw", "#takeback", "#rematch"]) {
      assert.equal(await watcher.locator(id).isVisible(), false, id);
    }
  }
}

async function gameView(page) {
  return page.evaluate(async () => {
    const id = location.pathname.split("/")[2];
    return (await fetch(`/api/games/${id}`)).json();
  });
}

test("Hop Chess between two browsers through the invitation link, watched live, to mate", async () => {
  const host = await openPage(env.browsers[0], env.server.url);
  const guest = await openPage(env.browsers[1], "about:blank");
  const watch = await openPage(env.browsers[2], "about:blank");
  const A = host.page;
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", "hopchess");
  await A.selectOption("#friend-color", "white");
  await A.selectOption("#friend-clock", { label: "3+2" });
  await A.click("#create-friend");
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  // The invitation link: the game and its invitation's token.
  assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/g\/[A-Za-z0-9]{8}\?invite=[A-Za-z0-9]{22}$/);
  // The copy button puts the link on the clipboard.
  await env.browsers[0].context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url.replace(/\/$/, "") });
  await A.click("#invite-copy");
  await A.waitForFunction(() => document.getElementById("invite-copy").textContent === "Copied");
  assert.equal(await A.evaluate(() => navigator.clipboard.readText()), link);
  assert.equal(await A.locator("#status").textContent(), "Waiting for your friend to join");
  // Waiting for the friend: the board is not playable yet.
  await square(A, "g1").click();
  assert.equal(await A.locator(".sq.target").count(), 0);
  await A.screenshot({ path: join(SCREENSHOTS, "friend-invite.png") });

  await joinThrough(link, guest.page, watch.page);
  const B = guest.page;
  const C = watch.page;
  await waitStatus(A, /^White to move$/);
  // Each player sits on their own side; the spectator sees White's side.
  assert.equal(await A.locator("#board .sq").first().getAttribute("data-square"), "a8");
  assert.equal(await B.locator("#board .sq").first().getAttribute("data-square"), "h1");
  assert.equal(await C.locator("#board .sq").first().getAttribute("data-square"), "a8");
  assert.match(await A.locator("#player-bottom .name").textContent(), /White \(you\)/);
  assert.match(await B.locator("#player-bottom .name").textContent(), /Black \(you\)/);
  // Both clocks show the time control; none runs before White's first move.
  for (const p of [A, B, C]) {
    assert.deepEqual(await p.locator(".player .clock").allTextContents(), ["3:00", "3:00"]);
    assert.equal(await p.locator(".clock.running").count(), 0);
  }
  // The players see each other connected, and the spectator.
  await A.waitForFunction(() => document.querySelector("#player-top .presence").classList.contains("on"));
  await A.waitForFunction(() => /1 watching/.test(document.getElementById("watchers").textContent));
  // Black cannot move White's pieces, the spectator nothing.
  await square(B, "g1").click();
  assert.equal(await B.locator(".sq.target").count(), 0);
  await square(C, "g1").click();
  assert.equal(await C.locator(".sq.target").count(), 0);

  await clickMove(A, "g1f3", ["g1", "f3"], [B, C]);
  // Now Black's clock runs, counting down in every tab.
  for (const p of [A, B, C]) {
    await p.waitForSelector('.player[data-color="black"] .clock.running');
  }
  const ms1 = Number(await C.locator('.player[data-color="black"] .clock').getAttribute("data-ms"));
  await C.waitForFunction(
    (m) => Number(document.querySelector('.player[data-color="black"] .clock').dataset.ms) < m - 300,
    ms1,
  );
  await A.screenshot({ path: join(SCREENSHOTS, "friend-clocks.png") });
  await C.screenshot({ path: join(SCREENSHOTS, "spectator.png") });
  // Black moves, then places its trampoline on e5 (H2).
  await square(B, "b7").click();
  await square(B, "b6").click();
  assert.match(await B.locator("#status").textContent(), /choose the trampoline square/);
  await clickMove(B, "b7b6@e5", ["e5"], [A, C]);
  assert.equal(await square(C, "e5").locator(".trampoline-black").count(), 1);
  // The knight bounces off Black's trampoline to c4; White's trampoline on
  // d6 carries the attack on e8: mate.
  await square(A, "f3").click();
  await square(A, "e5").click();
  await square(A, "c4").click();
  await clickMove(A, "f3e5c4@d6", ["d6"], [B, C]);
  for (const p of [A, B, C]) {
    await waitStatus(p, /^Game over: White wins by checkmate \(1-0\)$/);
    assert.equal(await p.locator("#moves li.result").textContent(), "1-0 White wins by checkmate");
    assert.equal(await p.locator(".clock.running").count(), 0);
    assert.equal(await p.locator("#resign").isVisible(), false);
  }
  assert.equal(await A.locator("#rematch").isVisible(), true);
  assert.equal(await C.locator("#rematch").isVisible(), false);
  const view = await gameView(C);
  assert.equal(view.you, null);
  assert.equal(view.result, "1-0");
  assert.equal(view.reason, "checkmate");
  for (const x of [host, guest, watch]) {
    assert.deepEqual(x.errors, []);
    await x.page.close();
  }
});

test("Jumping King between two browsers: take-back, draw declined, weak square, rematch", async () => {
  // A start position from the API (the creator's own browser, so its seat
  // cookie): both kings still jumping, two men each to place.
  const fen = "8/krbn4/4bp2/3p1r2/5N2/K7/RNBRPP2/8[BPnp] w Jj 0 20";
  const host = await openPage(env.browsers[0], env.server.url);
  const A = host.page;
  const created = await A.evaluate(async (fen) => {
    const r = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: "jumpingking", fen, mode: "friend", color: "white", clock: { initial: 600, increment: 5 } }),
    });
    return { status: r.status, body: await r.json() };
  }, fen);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await A.goto(new URL(`/g/${created.body.id}`, env.server.url).href);
  await A.waitForSelector("#invite:not([hidden])");
  const link = await A.locator("#invite-link").inputValue();
  const guest = await openPage(env.browsers[1], "about:blank");
  const watch = await openPage(env.browsers[2], "about:blank");
  await joinThrough(link, guest.page, watch.page);
  const B = guest.page;
  const C = watch.page;
  await waitStatus(A, /^White to move$/);
  // Files g and h, with no square, are not drawn: 6x8 cells, 10 of them
  // holes (b1-f1, a8-e8) beside the 38 squares (J1).
  assert.equal(await A.locator("#board .sq.hole").count(), 10);
  // Nothing to take back yet, nor for Black who has not moved.
  assert.equal(await A.locator("#takeback").isDisabled(), true);
  assert.equal(await B.locator("#takeback").isDisabled(), true);

  await clickMove(A, "a3c4b", ["a3", "c4", { choose: "a3c4b" }], [B, C]);
  // White asks to take it back; Black grants: the move is gone everywhere.
  assert.equal(await B.locator("#takeback").isDisabled(), true);
  await A.click("#takeback");
  await B.waitForSelector("#takeback-accept");
  await C.waitForFunction(() => /asks to take back/.test(document.getElementById("offers").textContent));
  await A.waitForSelector("#takeback:disabled");
  await B.click("#takeback-accept");
  for (const p of [A, B, C]) await waitMoves(p, 0);
  assert.equal(await square(C, "a3").getAttribute("data-piece"), "K");

  await clickMove(A, "a3c4b", ["a3", "c4", { choose: "a3c4b" }], [B, C]);
  await clickMove(B, "a7c6n", ["a7", "c6", { choose: "a7c6n" }], [A, C]);
  // Black offers a draw; White declines.
  await B.click("#draw");
  await A.waitForSelector("#draw-accept");
  await B.waitForSelector("#draw:disabled");
  await A.click("#draw-decline");
  await B.waitForFunction(() => !document.getElementById("draw").disabled);
  await A.waitForSelector("#offers", { state: "hidden" });

  await clickMove(A, "c4e3p", ["c4", "e3"], [B, C]);
  await clickMove(B, "c6a5p", ["c6", "a5"], [A, C]);
  await clickMove(A, "a3f8", ["a3", "f8"], [B, C]);
  for (const p of [A, B, C]) {
    await waitStatus(p, /^Game over: White wins by reaching the weak square \(1-0\)$/);
    assert.match(await p.locator("#moves li.result").textContent(), /^1-0 White wins/);
  }
  // Rematch, colours swapped: both players move to the new game.
  await B.click("#rematch");
  await A.waitForFunction(() => document.getElementById("rematch").textContent === "Accept rematch");
  await B.waitForSelector("#rematch:disabled");
  const oldPath = await A.evaluate(() => location.pathname);
  await A.click("#rematch");
  for (const p of [A, B]) await p.waitForFunction((old) => location.pathname !== old, oldPath);
  await C.waitForSelector("#rematch-link:not([hidden])");
  const [va, vb] = [await gameView(A), await gameView(B)];
  assert.equal(va.id, vb.id);
  assert.equal(va.you, "black");
  assert.equal(vb.you, "white");
  assert.equal(va.variant, "jumpingking");
  assert.equal(await A.locator("#board .sq").first().getAttribute("data-square"), "f1");
  assert.equal(await B.locator("#board .sq").first().getAttribute("data-square"), "a8");
  for (const x of [host, guest, watch]) {
    assert.deepEqual(x.errors, []);
    await x.page.close();
  }
});

test("the server is killed (SIGKILL) and restarted mid-game: the game goes on in both tabs", async () => {
  const own = await startServer();
  const host = await openPage(env.browsers[0], own.url);
  const guest = await openPage(env.browsers[1], "about:blank");
  const A = host.page;
  const B = guest.page;
  try {
    await A.waitForSelector("#create-friend");
    await A.selectOption("#variant", "chess");
    await A.selectOption("#friend-color", "white");
    await A.selectOption("#friend-clock", { label: "10+5" });
    await A.click("#create-friend");
    await A.waitForSelector("#invite:not([hidden])");
    const link = await A.locator("#invite-link").inputValue();
    await joinThrough(link, B, null);
    await clickMove(A, "e2e4", ["e2", "e4"], [B]);
    await clickMove(B, "e7e5", ["e7", "e5"], [A]);
    for (const p of [A, B]) await p.waitForSelector('#conn[data-state="live"]');

    await own.kill();
    // Both tabs notice and say so.
    for (const p of [A, B]) await p.waitForSelector('#conn:not([data-state="live"])', { timeout: 20000 });
    const restarted = await startServer({ dataDir: own.dataDir, port: own.port });
    own.kill = restarted.kill;
    own.stop = restarted.stop;
    for (const p of [A, B]) await p.waitForSelector('#conn[data-state="live"]', { timeout: 20000 });
    // Everything is as it was: moves, seats, clock.
    for (const p of [A, B]) {
      assert.deepEqual(await p.locator("#moves button").allTextContents(), ["e4", "e5"]);
    }
    const v = await gameView(A);
    assert.equal(v.you, "white");
    assert.equal(v.clock.initial_ms, 600000);
    assert.equal(v.clock.increment_ms, 5000);
    await clickMove(A, "g1f3", ["g1", "f3"], [B]);
    await clickMove(B, "b8c6", ["b8", "c6"], [A]);
    // Black resigns, after confirming.
    await B.click("#resign");
    await B.waitForSelector("#resign-box:not([hidden])");
    await B.click("#resign-no");
    assert.equal(await B.locator("#status").textContent(), "White to move");
    await B.click("#resign");
    await B.click("#resign-yes");
    for (const p of [A, B]) {
      await waitStatus(p, /^Game over: White wins by resignation \(1-0\)$/);
      assert.equal(await p.locator("#moves li.result").textContent(), "1-0 White wins by resignation");
    }
    assert.deepEqual(host.errors, []);
    assert.deepEqual(guest.errors, []);
  } finally {
    await A.close();
    await B.close();
    await own.stop();
  }
});

test("a flag falls: a 1-second clock runs out and the game is lost on time", async () => {
  const host = await openPage(env.browsers[0], env.server.url);
  const watch = await openPage(env.browsers[2], "about:blank");
  const A = host.page;
  const created = await A.evaluate(async () => {
    const r = await fetch("/api/games", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ variant: "chess", mode: "local", clock: { initial: 1, increment: 0 } }),
    });
    return { status: r.status, body: await r.json() };
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const link = new URL(`/g/${created.body.id}`, env.server.url).href;
  await A.goto(link);
  await waitStatus(A, /^White to move$/);
  await watch.page.goto(link);
  await watch.page.waitForSelector("#board .sq");
  assert.deepEqual(await A.locator(".player .clock").allTextContents(), ["0:01.0", "0:01.0"]);
  // Little time left: both clocks are shown as running low.
  assert.equal(await A.locator(".player .clock.low").count(), 2);
  // White's first move starts Black's clock; Black never moves.
  await clickMove(A, "e2e4", ["e2", "e4"], [watch.page]);
  for (const p of [A, watch.page]) {
    await waitStatus(p, /^Game over: White wins on time \(1-0\)$/, 15000);
    assert.equal(await p.locator('.player[data-color="black"] .clock').textContent(), "0:00.0");
    assert.equal(await p.locator("#moves li.result").textContent(), "1-0 White wins on time");
  }
  // Nothing can be moved any more.
  await square(A, "e7").click();
  assert.equal(await A.locator(".sq.target").count(), 0);
  const v = await gameView(A);
  assert.equal(v.reason, "time");
  assert.deepEqual(host.errors, []);
  assert.deepEqual(watch.errors, []);
  await A.close();
  await watch.page.close();
});

test("an engine game survives a reload while the engine thinks, and a second tab shows it", async () => {
  const { page, errors } = await openPage(env.browsers[0], env.server.url);
  // The page never asks the engine itself: the server plays its moves.
  const asked = [];
  env.browsers[0].context.on("request", (r) => {
    if (/\/engine$/.test(r.url())) asked.push(r.url());
  });
  await page.waitForSelector("#create-engine");
  await page.selectOption("#variant", "chess");
  await page.selectOption("#engine-color", "white");
  // The highest level thinks longest (about 2 s): time for a reload.
  const levels = await page.locator("#engine-level option").allTextContents();
  await page.selectOption("#engine-level", levels[levels.length - 1]);
  await page.click("#create-engine");
  await waitStatus(page, /^White to move$/);
  const path = await page.evaluate(() => location.pathname);
  await clickMove(page, "e2e4", ["e2", "e4"]);
  await waitStatus(page, /the engine is thinking/);
  await page.reload();
  await page.waitForSelector("#board .sq");
  assert.equal(await page.evaluate(() => location.pathname), path);
  assert.equal((await page.locator("#moves button").allTextContents())[0], "e4");
  // The same seat: White, at the bottom.
  assert.match(await page.locator("#player-bottom .name").textContent(), /White \(you\)/);
  // A second tab of the same browser shows the same game and seat.
  const second = await env.browsers[0].context.newPage();
  await second.goto(new URL(path, env.server.url).href);
  await second.waitForSelector("#board .sq");
  for (const p of [page, second]) {
    await waitMoves(p, 2, 30000);
    await waitStatus(p, /^White to move/);
  }
  assert.match(await second.locator("#player-bottom .name").textContent(), /White \(you\)/);
  assert.match(await second.locator("#player-top .name").textContent(), /level/);
  // The game goes on from the second tab, and the first follows.
  await clickMove(second, "d2d4", ["d2", "d4"], [page]);
  for (const p of [page, second]) await waitMoves(p, 4, 30000);
  await waitStatus(page, /^White to move/);
  // A take-back against the engine is granted at once: the player's last
  // move and the engine's reply are gone, in both tabs.
  assert.equal(await page.locator("#takeback").isDisabled(), false);
  await page.click("#takeback");
  for (const p of [page, second]) await waitMoves(p, 2);
  assert.equal(await square(second, "d2").getAttribute("data-piece"), "P");
  // No draw offers to the engine; resigning ends the game.
  assert.equal(await page.locator("#draw").isVisible(), false);
  await page.click("#resign");
  await page.click("#resign-yes");
  for (const p of [page, second]) await waitStatus(p, /^Game over: Black wins by resignation \(0-1\)$/);
  assert.deepEqual(asked, []);
  assert.deepEqual(errors, []);
  await second.close();
  await page.close();
});

test("the games page: ongoing and recent games, my games, PGN download", async () => {
  const { page, errors } = await openPage(env.browsers[0], new URL("/games", env.server.url).href);
  await page.waitForSelector("#games-table tbody tr");
  const rows = () =>
    page.locator("#games-table tbody tr").evaluateAll((trs) =>
      trs.map((tr) => Object.fromEntries([...tr.children].map((td) => [td.className, td.textContent]))),
    );
  const ongoing = await rows();
  assert.ok(ongoing.length >= 1);
  // Games being played, each saying whose move it is; no invitation.
  for (const r of ongoing) assert.match(r.result, /^(White|Black) to move|^Your move$/, JSON.stringify(r));
  await page.click('.tabs button[data-list="recent"]');
  await page.waitForFunction(() => location.search === "?list=recent");
  await page.waitForFunction(() =>
    [...document.querySelectorAll("#games-table td.result")].some((td) => td.textContent.includes("checkmate")),
  );
  const recent = await rows();
  const hop = recent.find((r) => r.variant === "Hop Chess" && /1-0 \(checkmate\)/.test(r.result));
  assert.ok(hop, JSON.stringify(recent));
  assert.equal(hop.tc, "3+2");
  // Three single moves: White's two and Black's one, two moves.
  assert.equal(hop.count, "2");
  assert.match(hop.date, /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
  // My games: this browser held a seat in each.
  await page.click('.tabs button[data-list="mine"]');
  await page.waitForFunction(() => location.search === "?list=mine");
  await page.waitForSelector("#games-table tbody tr");
  const mine = await rows();
  assert.ok(mine.some((r) => r.variant === "Hop Chess"), JSON.stringify(mine));
  // The spectator's browser has no games of its own.
  const other = await openPage(env.browsers[2], new URL("/games?list=mine", env.server.url).href);
  await other.page.waitForSelector("#games-empty:not([hidden])");
  await other.page.close();
  // PGN download of a finished game.
  await page.click('.tabs button[data-list="recent"]');
  await page.waitForFunction(() => location.search === "?list=recent");
  const row = page.locator("#games-table tbody tr", { hasText: "Hop Chess" }).first();
  const href = await row.locator('a[download]').getAttribute("href");
  const resp = await page.request.get(new URL(href, env.server.url).href);
  assert.equal(resp.status(), 200);
  assert.match(resp.headers()["content-type"], /application\/x-chess-pgn/);
  const pgn = await resp.text();
  assert.ok(pgn.includes('[Variant "hopchess"]') || pgn.includes("Hop"), pgn);
  assert.match(pgn, /1-0\s*$/);
  // Replay: the link opens the finished game (this browser played White).
  await row.locator("a.open").click();
  await page.waitForSelector("#board .sq");
  await waitStatus(page, /^Game over: White wins by checkmate/);
  await page.screenshot({ path: join(SCREENSHOTS, "replay.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("an engine game survives a server kill (SIGKILL) while the engine thinks", async () => {
  const own = await startServer();
  const { page, errors } = await openPage(env.browsers[1], own.url);
  try {
    await page.waitForSelector("#create-engine");
    await page.selectOption("#variant", "chess");
    await page.selectOption("#engine-color", "black");
    const levels = await page.locator("#engine-level option").allTextContents();
    await page.selectOption("#engine-level", levels[levels.length - 1]);
    await page.click("#create-engine");
    await page.waitForSelector("#board .sq");
    // The player plays Black: the board is turned, and the engine (White)
    // moves first, on its own.
    assert.equal(await page.locator("#board .sq").first().getAttribute("data-square"), "h1");
    await waitMoves(page, 1, 30000);
    await waitStatus(page, /^Black to move/);
    await clickMove(page, "g8f6", ["g8", "f6"]);
    await waitStatus(page, /the engine is thinking/);
    await own.kill();
    const restarted = await startServer({ dataDir: own.dataDir, port: own.port });
    own.stop = restarted.stop;
    // The server takes up the engine's turn again; the page, reconnected,
    // shows its move and the player's turn.
    await page.waitForSelector('#conn[data-state="live"]', { timeout: 20000 });
    await waitMoves(page, 3, 30000);
    await waitStatus(page, /^Black to move/);
    const v = await gameView(page);
    assert.equal(v.you, "black");
    assert.equal(v.mode, "engine");
    assert.equal(v.plies, 3);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await own.stop();
  }
});
