// The page with the rules core and the engine in the browser (crates/wasm,
// built by scripts/wasm.sh): a Hop Chess game clicked through while the
// server's legal move lists are withheld (the move-list endpoint failed,
// every view's `legal` and `steps` taken out), so that the highlighted
// moves, the half-made turn and the board after each move come from the
// WebAssembly rules core while the server still plays every move; a move
// the server refuses puts the board back with the half-made turn kept;
// the earlier positions of a game equal the server's; and the analysis
// runs in a Web Worker with the server's analysis endpoint failed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { newLocalGame, openTab, routeGameSocket, setUp, square, SCREENSHOTS } from "./harness.js";

const env = setUp();

// Waits until the page has loaded the rules core in the browser.
async function rulesLoaded(page) {
  await page.waitForFunction(() => document.documentElement.dataset.rules !== undefined);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.rules), "wasm", "the page loaded the WebAssembly build");
}

const status = (page) => page.locator("#status").textContent();

// Clicks a Hop Chess turn ("g1f3@d4": piece, target, then the trampoline
// square; no "@": no placement asked) and waits for the server's answer
// (the move goes over the game's socket, routed through `sock`).
async function clickTurn(page, sock, turn) {
  const before = await page.locator("#moves button").count();
  const [move, place] = turn.split("@");
  const answered = sock.answered(sock.answers.length + 1);
  await square(page, move.slice(0, 2)).click();
  // The picked piece's moves are marked.
  assert.ok((await page.locator(".mark.move, .mark.capture").count()) > 0, `${turn}: no move marked`);
  await square(page, move.slice(2, 4)).click();
  if (place) {
    await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
    assert.ok((await page.locator(".mark.place").count()) > 10, `${turn}: no placement marked`);
    await square(page, place).click();
  }
  await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, before + 1);
  assert.equal((await answered).t, "ack", `${turn}: the server played it`);
}

test("Hop Chess clicked through with the server's legal move lists withheld", async () => {
  const { page, errors } = await openTab(env.browser);
  const sock = await routeGameSocket(page);
  let withheld = 0;
  let asked = 0;
  await page.route(/\/api\/games\/\w+\/moves(\?.*)?$/, (route) => {
    asked++;
    return route.abort();
  });
  // Every game view loses its lists; the first move reaches the server
  // late, so the board after it is seen before the server's answer.
  let slowed = false;
  sock.onMove = async () => {
    if (!slowed) {
      slowed = true;
      await new Promise((r) => setTimeout(r, 1500));
    }
    return null;
  };
  // The game's views read after the first (the moves come by socket).
  let views = 0;
  await page.route(/\/api\/games(\/\w+(\/\w+)?)?(\?.*)?$/, async (route) => {
    if (route.request().url().endsWith("/ws")) return route.continue();
    if (route.request().method() === "GET" && /\/api\/games\/\w+$/.test(route.request().url())) views++;
    const resp = await route.fetch();
    let body = await resp.text();
    try {
      const v = JSON.parse(body);
      if (v && typeof v === "object" && Array.isArray(v.legal)) {
        if (v.legal.length > 0) withheld++;
        delete v.legal;
        delete v.steps;
        body = JSON.stringify(v);
      }
    } catch (_) {
      // not JSON: passed on as it is
    }
    await route.fulfill({ response: resp, body });
  });
  await newLocalGame(page, env.server.url, "hopchess");
  await rulesLoaded(page);
  const opened = views;

  // White's first turn has no placement (H3); the pawn stands on e4, with
  // its SAN in the move list, before the server answers.
  const late = sock.answered(1);
  await square(page, "e2").click();
  assert.ok((await page.locator(".mark.move").count()) > 0, "e2: no move marked");
  await square(page, "e4").click();
  await page.waitForFunction(() => document.querySelector('[data-square="e4"]').getAttribute("data-piece") === "P");
  assert.equal(await page.locator("#moves button").count(), 1, "the move is listed at once");
  assert.equal(await page.locator("#moves button").first().textContent(), "e4");
  assert.equal(await status(page), "Black to move");
  let answeredYet = false;
  late.then(() => (answeredYet = true));
  // Black's piece is picked, its moves marked, while the server has not answered.
  await square(page, "e7").click();
  assert.ok((await page.locator(".mark.move").count()) > 0, "e7: no move marked before the server's answer");
  assert.equal(answeredYet, false, "the server answered before the board showed the move");
  await late;
  // The server agreed: the piece picked meanwhile stays picked.
  await page.waitForTimeout(100);
  assert.ok((await page.locator(".mark.move").count()) > 0, "the picked piece was dropped when the server answered");
  await square(page, "e5").click();
  await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
  await square(page, "e6").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);

  for (const turn of ["g1f3@d4", "b8c6@d5", "f1c4@c3"]) await clickTurn(page, sock, turn);
  const titles = await page.locator("#moves button").evaluateAll((bs) => bs.map((b) => b.getAttribute("title")));
  assert.deepEqual(titles, ["e2e4", "e7e5@e6", "g1f3@d4", "b8c6@d5", "f1c4@c3"]);
  assert.deepEqual(await page.locator("#moves button").allTextContents(), ["e4", "e5 e6", "Nf3 d4", "Nc6 d5", "Bc4 c3"]);
  assert.equal(await square(page, "c3").locator(".trampoline-white").count(), 1);
  assert.equal(await square(page, "d5").locator(".trampoline-black").count(), 1);
  // The server's lists were there to withhold, and none reached the page;
  // the game's view was read once (the moves came over the socket).
  assert.ok(withheld >= 1, `withheld ${withheld} lists`);
  assert.equal(views, opened, "the game's view was read again after a move");
  assert.equal(asked, 0);

  // Stepping back through the game asks the server nothing.
  let reads = 0;
  page.on("request", (r) => {
    if (/\/api\/games\/\w+(\?ply=\d+|\/line)$/.test(r.url())) reads++;
  });
  await page.click("#nav-start");
  await page.waitForFunction(() => document.querySelector('[data-square="e2"]').getAttribute("data-piece") === "P");
  await page.click("#nav-forward");
  await page.waitForFunction(() => document.querySelector('[data-square="e4"]').getAttribute("data-piece") === "P");
  assert.equal(reads, 0, "the earlier positions were asked of the server");
  await page.screenshot({ path: join(SCREENSHOTS, "localrules-hopchess.png") });
  assert.deepEqual(errors, []);
  await page.close();
});

test("a move the server refuses: the board is put back, the half-made Hop Chess turn kept", async () => {
  const { page, errors } = await openTab(env.browser);
  const sock = await routeGameSocket(page);
  await newLocalGame(page, env.server.url, "hopchess");
  await rulesLoaded(page);
  await clickTurn(page, sock, "e2e4");
  // Black's half-made turn: the piece moved, the trampoline square asked.
  await square(page, "e7").click();
  await square(page, "e5").click();
  await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
  let refused = 0;
  sock.onMove = async (msg) => {
    refused++;
    await new Promise((r) => setTimeout(r, 500));
    return { t: "error", a: msg.a, d: { error: "the test refuses this move" } };
  };
  await square(page, "e6").click();
  // Shown at once, while the server checks it...
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  assert.equal(await status(page), "White to move");
  // ...then refused: the board as it was, the turn still half-made.
  await page.waitForFunction(() => document.getElementById("error").textContent !== "");
  assert.match(await page.locator("#error").textContent(), /the test refuses this move/);
  assert.equal(refused, 1);
  assert.equal(await page.locator("#moves button").count(), 1);
  assert.match(await status(page), /choose the trampoline square/);
  assert.equal(await square(page, "e5").getAttribute("data-piece"), "p", "the half-made turn's piece left e5");
  assert.ok((await page.locator(".mark.place").count()) > 10, "the placement is no longer asked");
  assert.equal(await page.locator("#cancel").isVisible(), true);
  // The server takes it now: the same click ends the turn.
  sock.onMove = null;
  await square(page, "e6").click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2);
  await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
  assert.equal(await page.locator("#error").textContent(), "");
  const plies = await page.evaluate(async () => (await (await fetch(`/api/games/${location.pathname.split("/")[2]}`)).json()).plies);
  assert.equal(plies, 2);
  assert.deepEqual(errors, []);
  await page.close();
});

test("the positions the page computes equal the server's views (Hop Chess middlegame, side line)", async () => {
  const { page, errors } = await openTab(env.browser);
  const sock = await routeGameSocket(page);
  await newLocalGame(page, env.server.url, "hopchess", "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -");
  await rulesLoaded(page);
  for (const turn of ["d4d5@e3", "e7f8@c6", "c3b5@e2"]) await clickTurn(page, sock, turn);
  const diffs = await page.evaluate(async () => {
    const { viewAt, lineView } = await import("/static/localrules.js");
    const { app } = await import("/static/state.js");
    const id = location.pathname.split("/")[2];
    const fields = ["fen", "turn", "fullmove", "ply", "plies", "squares", "trampolines", "reserves", "check", "check_lines", "weak_squares", "stuck", "jumping", "last_move", "legal", "steps", "history", "outcome"];
    const out = [];
    const compare = (name, mine, theirs) => {
      if (!mine) return out.push(`${name}: not computed`);
      for (const f of fields) if (JSON.stringify(mine[f]) !== JSON.stringify(theirs[f])) out.push(`${name}: ${f}`);
    };
    const line = async (ply, moves) =>
      (await fetch(`/api/games/${id}/line`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ply, moves }) })).json();
    let lines = 0;
    for (let ply = 0; ply <= app.game.plies; ply++) {
      compare(`ply ${ply}`, viewAt(app.game, ply), await (await fetch(`/api/games/${id}?ply=${ply}`)).json());
      const there = await line(ply, []);
      compare(`line ${ply}`, lineView(app.game, ply, []), there);
      // Side lines of two moves from there: every 100th first move.
      for (let i = 0; i < there.legal.length; i += 100) {
        const first = there.legal[i].uci;
        const after = await line(ply, [first]);
        const moves = after.legal.length ? [first, after.legal[after.legal.length - 1].uci] : [first];
        compare(`line ${ply} ${moves.join(" ")}`, lineView(app.game, ply, moves), await line(ply, moves));
        lines++;
      }
    }
    return lines > 10 ? out : [...out, `only ${lines} side lines`];
  });
  assert.deepEqual(diffs, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("analysis in a Web Worker with the server's analysis endpoint switched off: bar, best line, arrows, several lines", async () => {
  const { page, errors } = await openTab(env.browser);
  let asked = 0;
  await page.route(/\/api\/games\/\w+\/analysis$/, (route) => {
    asked++;
    return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "switched off by the test" }) });
  });
  await newLocalGame(page, env.server.url, "trampoline");
  await rulesLoaded(page);
  // White's trampoline on h5: Qd1-h5-f7 mates.
  for (const m of ["e2e4", "e7e5", "f1c4", "b8c6"]) {
    const n = await page.locator("#moves button").count();
    await square(page, m.slice(0, 2)).click();
    await square(page, m.slice(2, 4)).click();
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
  }
  await page.check("#analysis-toggle");
  await page.waitForSelector("#analysis:not([hidden])");
  // The analysis goes deeper on its own (no depth limit) and shows
  // several lines, each with its arrow.
  await page.waitForFunction(() => {
    const d = /^depth (\d+)$/.exec(document.getElementById("analysis-depth").textContent);
    return d && Number(d[1]) >= 6 && document.querySelectorAll("#analysis-lines li").length === 2;
  }, null, { timeout: 30000 });
  assert.match(await page.locator("#analysis-score").textContent(), /^[+-]?\d+\.\d\d$|mates|wins/);
  assert.match(await page.locator("#analysis-line").textContent(), /^3\. \S+/);
  // The lines' first moves as arrows (a trampoline placement has none, so
  // which of them show depends on the engine's choice here; the best
  // move's arrow is checked on the mate below).
  await page.waitForSelector(".arrow.best, .arrow.alt");
  assert.equal(await page.locator("#evalbar").isVisible(), true);
  await page.screenshot({ path: join(SCREENSHOTS, "localrules-analysis.png") });
  // A mate: found, shown with how it wins, and the search ends there.
  const n = await page.locator("#moves button").count();
  await page.evaluate(async () => {
    // Played as another tab of the same player would (the socket brings them).
    const id = location.pathname.split("/")[2];
    for (const move of ["@h5", "g8f6"]) {
      await fetch(`/api/games/${id}/move`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ move }) });
    }
  });
  await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k + 2, n);
  await page.waitForFunction(() => document.getElementById("analysis-score").textContent === "White mates in 1", null, { timeout: 30000 });
  await page.waitForSelector(".arrow.best");
  assert.equal(await page.locator(".arrow.best").getAttribute("data-points"), "d1 h5 f7");
  assert.equal(await page.locator("#evalbar").getAttribute("data-share"), "1.000");
  await page.waitForFunction(() => /^The engine searched to depth \d+\.$/.test(document.getElementById("analysis-status").textContent));
  // Switched off: no bar, no arrow, the worker ended.
  await page.uncheck("#analysis-toggle");
  await page.waitForFunction(() => document.getElementById("evalbar").hidden);
  assert.equal(await page.locator(".arrow.best, .arrow.alt").count(), 0);
  assert.equal(asked, 0, "the server's analysis endpoint was asked");
  assert.deepEqual(errors, []);
  await page.close();
});
