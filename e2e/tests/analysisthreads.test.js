// The analysis in the browser on several Web Workers (analysisthreads.js):
// the number of workers forced to 2 (the `localStorage` entry the page
// reads), the root moves dealt between them, their lines merged. A
// position with four legal moves, one of them a mate in one: each worker
// searches two moves, so the mate is in one share only, and the three
// lines shown come from both shares; the mate is found and shown with its
// arrow and the full bar, both workers end (the other once it has
// searched as deep as the mate's), and the server's analysis endpoint is
// never asked. A position with a single legal move is searched by one
// worker; switching the analysis off ends the workers.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { newLocalGame, openTab, setUp, SCREENSHOTS } from "./harness.js";

const env = setUp();

// White: Kf7, pawns a2 g6 h2; Black: Kh8, Nd7, Re1, pawns a3 h7. White's
// king has no move; g7 mates; gxh7, h3 and h4 are the others.
const MATE_IN_ONE = "7k/3n1K1p/6P1/8/8/p7/P6P/4r3 w - - 0 1";
// White in check from the rook on a1: Kg2 is the only move.
const ONE_MOVE = "k7/8/8/8/8/8/7P/r6K w - - 0 1";

// Two analysis workers, counted as the page starts and ends them.
async function twoThreads(page) {
  await page.addInitScript(() => {
    localStorage.setItem("springboard.analysisThreads", "2");
    const Native = window.Worker;
    const count = { started: 0, live: 0 };
    Object.assign(window, { analysisWorkers: count });
    window.Worker = class extends Native {
      constructor(url, opts) {
        super(url, opts);
        this.counted = String(url).includes("analysisworker.js");
        if (this.counted) {
          count.started++;
          count.live++;
        }
      }
      terminate() {
        if (this.counted) count.live--;
        this.counted = false;
        super.terminate();
      }
    };
  });
}

const workers = (page) => page.evaluate(() => ({ ...window["analysisWorkers"] }));

async function rulesLoaded(page) {
  await page.waitForFunction(() => document.documentElement.dataset.rules !== undefined);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.rules), "wasm", "the page loaded the WebAssembly build");
}

test("analysis on 2 workers: a share each, lines from both, the mate in one share found", async () => {
  const { page, errors } = await openTab(env.browser);
  await twoThreads(page);
  let asked = 0;
  await page.route(/\/api\/games\/\w+\/analysis$/, (route) => {
    asked++;
    return route.fulfill({ status: 503, contentType: "application/json", body: JSON.stringify({ error: "switched off by the test" }) });
  });
  await newLocalGame(page, env.server.url, "chess", MATE_IN_ONE);
  await rulesLoaded(page);
  // The page deals the four moves as the module says: two to each.
  const shares = await page.evaluate(async () => {
    const { dealMoves } = await import("/static/analysisthreads.js");
    return dealMoves(["a", "b", "c", "d"], 2);
  });
  assert.deepEqual(shares, [["a", "c"], ["b", "d"]]);
  await page.check("#analysis-toggle");
  await page.waitForSelector("#analysis:not([hidden])");
  await page.waitForFunction(() => document.getElementById("analysis-score").textContent === "White mates in 1", null, { timeout: 30000 });
  assert.equal(await page.locator("#analysis-threads").textContent(), "· 2 threads");
  assert.equal(await page.locator("#analysis").getAttribute("data-threads"), "2");
  assert.equal(await page.locator("#analysis-line").textContent(), "1. g7#");
  assert.equal(await page.locator(".arrow.best").getAttribute("data-points"), "g6 g7");
  assert.equal(await page.locator("#evalbar").getAttribute("data-share"), "1.000");
  // Both workers end: the mate's when it is proven, the other once it
  // has searched as deep.
  await page.waitForFunction(() => /^The engine searched to depth \d+\.$/.test(document.getElementById("analysis-status").textContent), null, { timeout: 30000 });
  assert.deepEqual(await workers(page), { started: 2, live: 0 });
  // The best line and the next two (of the four lines the workers
  // found): from both shares; the other share's lines are no mate, so
  // the mate was in one share only.
  const mateShare = await page.locator("#analysis-line").getAttribute("data-share");
  const lines = await page.locator("#analysis-lines li").evaluateAll((lis) =>
    lis.map((li) => ({ share: li.dataset.share, score: li.querySelector(".score").textContent, text: li.textContent })),
  );
  assert.equal(lines.length, 2, JSON.stringify(lines));
  const others = lines.filter((l) => l.share !== mateShare);
  assert.ok(others.length >= 1, `no line from the other share: ${JSON.stringify(lines)} (the mate's share ${mateShare})`);
  for (const l of others) assert.match(l.score, /^[+-]?\d+\.\d\d$/, JSON.stringify(l));
  assert.deepEqual(new Set([mateShare, ...lines.map((l) => l.share)]), new Set(["0", "1"]));
  await page.screenshot({ path: join(SCREENSHOTS, "analysis-threads.png") });
  assert.equal(asked, 0, "the server's analysis endpoint was asked");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a single legal move is searched by one worker; switched off, the workers end", async () => {
  const { page, errors } = await openTab(env.browser);
  await twoThreads(page);
  await newLocalGame(page, env.server.url, "chess", ONE_MOVE);
  await rulesLoaded(page);
  await page.check("#analysis-toggle");
  await page.waitForFunction(() => /^1\. Kg2/.test(document.getElementById("analysis-line").textContent), null, { timeout: 30000 });
  assert.equal(await page.locator("#analysis-threads").textContent(), "· 1 thread");
  assert.equal((await workers(page)).live, 1);
  await page.uncheck("#analysis-toggle");
  await page.waitForFunction(() => document.getElementById("evalbar").hidden);
  assert.deepEqual(await workers(page), { started: 1, live: 0 });
  // Back on, in the start position of a new game: two workers, ended
  // when the analysis is switched off again.
  await newLocalGame(page, env.server.url, "chess");
  await page.check("#analysis-toggle");
  await page.waitForFunction(() => /^depth ([4-9]|\d\d)$/.test(document.getElementById("analysis-depth").textContent), null, { timeout: 30000 });
  assert.equal(await page.locator("#analysis-threads").textContent(), "· 2 threads");
  assert.equal((await workers(page)).live, 2);
  await page.uncheck("#analysis-toggle");
  await page.waitForFunction(() => document.getElementById("evalbar").hidden);
  assert.equal((await workers(page)).live, 0);
  assert.deepEqual(errors, []);
  await page.close();
});
