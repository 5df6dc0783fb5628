// The time from the click that ends a Hop Chess turn to the next side's
// moves highlighted, in headless Chromium against a local server, with the
// rules core in the browser (WebAssembly) and without it (the page then
// waits for the server's view, as when `/static/wasm.json` is missing).
// A middlegame of the bench (seed-7); each sample is one turn: the script
// clicks its piece, target and trampoline square, and the page measures
// the time from that last click to the first frame where the next side's
// piece can be picked with its moves marked. Prints the median and the
// 90th percentile of each way, in milliseconds.
//   SPRINGBOARD_BIN=target/debug/springboard node e2e/wasm/clicktiming.js [turns]

import { startServer, startBrowser, newLocalGame, square } from "../tests/harness.js";
import { loadRules } from "./load.js";

const FEN = "r1bqk2r/ppppbp1p/n4P2/8/3Q4/2N5/PPP2PPP/R3KBNR w KQkq - 1 7 e4,c5 -";
const TURNS = Number(process.argv[2] || 12);
const rules = await loadRules();

// A turn of `g` that the page plays with three clicks (a piece move to an
// empty square without a bounce, then a trampoline square that is not the
// one it stands on), chosen by the rules core; and the square of a piece
// of the side to move after it that has a move.
function pickTurn(g, k) {
  const legal = JSON.parse(g.legal()).filter((m) => m.kind === "normal" && m.via.length === 0 && m.place);
  const m = legal[(k * 7) % legal.length];
  const after = g.clone();
  after.play(m.uci);
  const next = JSON.parse(after.legal()).find((x) => x.from);
  after.free();
  return { m, next: next ? next.from : null };
}

function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

// (The browser runs without the page's service worker: its requests would
// pass by the route that refuses wasm.json.)
async function measure(browser, url, wasm) {
  const page = await browser.context.newPage();
  if (!wasm) await page.route(/\/static\/wasm\.json$/, (route) => route.fulfill({ status: 404, body: "" }));
  await newLocalGame(page, url, "hopchess", FEN);
  await page.waitForFunction(() => document.documentElement.dataset.rules !== undefined);
  const mode = await page.evaluate(() => document.documentElement.dataset.rules);
  if (mode !== (wasm ? "wasm" : "server")) throw new Error(`the page's rules: ${mode}`);
  const g = new rules.Game("hopchess", FEN);
  const times = [];
  for (let k = 0; k < TURNS; k++) {
    const { m, next } = pickTurn(g, k);
    if (!next) break;
    const n = await page.locator("#moves button").count();
    await square(page, m.from).click();
    await square(page, m.to).click();
    await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
    // Measured in the page: from the click on the trampoline square
    // (which sends the turn) to the first frame where the next side's
    // piece can be picked with its moves marked (the board shows the
    // turn, no request holds the board, the piece has moves).
    const timing = page.evaluate(
      ({ place, next, plies }) =>
        new Promise((resolve) => {
          let t0 = null;
          const down = (ev) => {
            if (!ev.target.closest || !ev.target.closest(`[data-square="${place}"]`)) return;
            t0 = performance.now();
            document.removeEventListener("pointerdown", down, true);
          };
          document.addEventListener("pointerdown", down, true);
          import("/static/state.js").then(({ app }) => {
            const poll = () => {
              const g = app.game;
              const ready = t0 !== null && g && g.plies === plies && (!app.busy || g.pending) && app.input.legal.some((m) => m.from === next);
              if (ready) resolve(performance.now() - t0);
              else requestAnimationFrame(poll);
            };
            requestAnimationFrame(poll);
          });
        }),
      { place: m.place, next, plies: n + 1 },
    );
    await page.waitForTimeout(50);
    await square(page, m.place).click();
    times.push(await timing);
    // The next piece's moves are marked at its click.
    await square(page, next).click();
    if ((await page.locator(".mark.move, .mark.capture").count()) === 0) throw new Error(`${next}: no move marked`);
    // The server's answer, before the next turn.
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
    await page.waitForTimeout(150);
    g.play(m.uci);
  }
  g.free();
  await page.close();
  return times;
}

const server = await startServer();
const browser = await startBrowser({ width: 1280, height: 800 }, { serviceWorkers: "block" });
try {
  // A first round of each warms the server and the browser; not counted.
  await measure(browser, server.url, false);
  await measure(browser, server.url, true);
  for (const wasm of [false, true]) {
    const t = await measure(browser, server.url, wasm);
    console.log(
      `${wasm ? "WebAssembly" : "server     "}: ${t.length} turns, median ${quantile(t, 0.5).toFixed(1)} ms, p90 ${quantile(t, 0.9).toFixed(1)} ms`,
    );
  }
} finally {
  await browser.close();
  await server.stop();
}
