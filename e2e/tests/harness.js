// Starts Springboard's server on a free loopback port and a fresh headless
// Chromium (Debian's /usr/bin/chromium through playwright-core).

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { before, after, beforeEach, afterEach } from "node:test";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");

export const SPRINGBOARD = process.env.SPRINGBOARD_BIN || join(repo, "target", "debug", "springboard");
export const SCREENSHOTS = join(here, "..", "screenshots");

// Runs `springboard serve` on loopback with a data directory (a fresh
// temporary one unless `dataDir` is given) and waits for the URL it prints.
// `port` 0 picks a free port; a restart passes the old one so that open
// pages reconnect to the same address. `kill()` is SIGKILL (nothing is
// flushed), `stop()` a normal stop that also removes a temporary data dir.
export function startServer({ dataDir, port = 0, args = [] } = {}) {
  const owned = !dataDir;
  const data = dataDir || mkdtempSync(join(tmpdir(), "springboard-data-"));
  return new Promise((resolve, reject) => {
    const proc = spawn(
      SPRINGBOARD,
      ["serve", "--host", "127.0.0.1", "--port", String(port), "--data", data, ...args],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    let up = false;
    const timer = setTimeout(() => {
      proc.kill("SIGKILL");
      reject(new Error("the server printed no URL within 20 s: " + out + err));
    }, 20000);
    const exited = new Promise((r) => proc.on("exit", r));
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(out);
      if (m && !up) {
        up = true;
        clearTimeout(timer);
        resolve({
          url: m[1],
          port: Number(m[2]),
          dataDir: data,
          output: () => out + err,
          kill: async () => {
            proc.kill("SIGKILL");
            await exited;
          },
          stop: async () => {
            proc.kill();
            await exited;
            if (owned) rmSync(data, { recursive: true, force: true });
          },
        });
      }
    });
    proc.stderr.on("data", (d) => (err += d));
    proc.on("exit", (code) => {
      clearTimeout(timer);
      if (!up) reject(new Error(`the server exited (${code}): ${err}`));
    });
  });
}

// Registers the hooks of a test file that starts the server and the
// browsers once for all its tests: returns `env`, whose `server`, `browser`
// (the first of `browsers`) and `browsers` are set when the tests run.
// `browsers`: how many browser profiles (players) to start; `serverEach`: a
// fresh server for each test instead (a server allows 20 game creations a
// minute from one address).
export function setUp({ browsers = 1, serverEach = false } = {}) {
  const env = { server: null, browser: null, browsers: [] };
  before(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    if (!serverEach) env.server = await startServer();
    for (let i = 0; i < browsers; i++) env.browsers.push(await startBrowser());
    env.browser = env.browsers[0] || null;
  });
  after(async () => {
    for (const b of env.browsers) await b.close();
    if (env.server) await env.server.stop();
  });
  if (serverEach) {
    beforeEach(async () => {
      env.server = await startServer();
    });
    afterEach(async () => {
      if (env.server) await env.server.stop();
      env.server = null;
    });
  }
  return env;
}

// A new tab of `browser` and the list its uncaught page errors go to.
export async function openTab(browser) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return { page, errors };
}

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// Opens the creation screen and starts a game at one screen of `variant`
// (from the position `fen` when given), waiting until White is to move.
export async function newLocalGame(page, url, variant = "chess", fen = null) {
  await page.goto(url);
  await page.waitForSelector("#create-local");
  await page.selectOption("#variant", variant);
  await page.click("#create-local");
  // On a timeout, what the creation screen said (its error line) and where
  // the page is tell a refused game from a slow one.
  await page.waitForSelector("#board .sq").catch(async (err) => {
    const said = await page.locator("#create-error").textContent().catch(() => "?");
    throw new Error(`${err.message}\nat ${page.url()}, the creation screen said: '${said}'`);
  });
  await page.waitForFunction(() => /^\/g\/\w+/.test(location.pathname));
  if (fen) {
    const path = await page.evaluate(() => location.pathname);
    await page.fill("#text", fen);
    await page.click("#import-fen");
    await page.waitForFunction((p) => location.pathname !== p, path);
  }
  await page.waitForFunction(
    (title) => document.getElementById("game-title").textContent === title,
    await page.locator(`#variant option[value="${variant}"]`).textContent(),
  );
  if (!fen) await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
}

// A fresh browser profile: its own cookies, so another player.
// `serviceWorkers: "block"` keeps the page's service worker (/sw.js) out:
// a test that answers the page's files itself (page.route) needs that, as
// the worker's own requests pass by the page's routes; so does the page
// served from disk below.
export async function startBrowser(viewport = { width: 1100, height: 760 }, { serviceWorkers = "allow" } = {}) {
  const profile = mkdtempSync(join(tmpdir(), "springboard-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport,
    serviceWorkers: process.env.SPRINGBOARD_E2E_STATIC ? "block" : serviceWorkers,
    // Files answered by the test count as coming from outside this
    // machine: let them reach the loopback server like the real ones.
    args: process.env.SPRINGBOARD_E2E_STATIC
      ? [...CHROMIUM_ARGS, "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests"]
      : CHROMIUM_ARGS,
  });
  if (process.env.SPRINGBOARD_E2E_STATIC) await serveStaticFromDisk(context, process.env.SPRINGBOARD_E2E_STATIC);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// A help while working on the page (never set by scripts/e2e.sh): with
// SPRINGBOARD_E2E_STATIC=crates/web/static the browser gets the page's
// files from that folder instead of the ones built into the binary, so a
// change is tried without a rebuild. "/", "/g/...", "/games" and "/lab" get
// its index.html.
async function serveStaticFromDisk(context, dir) {
  const types = { js: "text/javascript", css: "text/css", html: "text/html", svg: "image/svg+xml", md: "text/markdown" };
  const file = (name) => ({
    status: 200,
    contentType: types[name.split(".").pop()] || "application/octet-stream",
    body: readFileSync(join(dir, name)),
  });
  await context.route(/\/static\/[\w.\/-]+$/, (route) => {
    const name = new URL(route.request().url()).pathname.slice("/static/".length);
    // Not in the folder (the WebAssembly build, wasm.json): the server's.
    if (name.includes("..") || !existsSync(join(dir, name))) return route.continue();
    return route.fulfill(file(name));
  });
  await context.route(/^http:\/\/127\.0\.0\.1:\d+\/(g\/\w+|games|lab)?(\?.*)?$/, (route) => route.fulfill(file("index.html")));
}

export function square(page, name) {
  return page.locator(`[data-square="${name}"]`);
}

// The centre of what `locator` shows, in page pixels. The board draws its
// squares again when a view arrives (the server's answer to a move may
// come after the move is shown), and a square caught between two
// drawings has no box for a moment: asked again until it has one.
export async function centre(locator) {
  for (let i = 0; i < 100; i++) {
    const b = await locator.boundingBox();
    if (b) return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${locator} has no box on the page`);
}

// Drags with the mouse from the centre of `from` to that of `to`.
export async function drag(page, from, to) {
  const a = await centre(from);
  const b = await centre(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
}

// Clicks the moves, each "e2e4"-like: origin then target.
export async function clickMoves(page, moves) {
  for (const m of moves) {
    const before = await page.locator("#moves button").count();
    await square(page, m.slice(0, 2)).click();
    await square(page, m.slice(2, 4)).click();
    await page.waitForFunction((n) => document.querySelectorAll("#moves button").length === n, before + 1);
  }
}

// Plays the moves (long notation) through the API as the page's player
// and waits until the page shows each.
export async function playByApi(page, ucis) {
  for (const uci of ucis) {
    const n = await page.locator("#moves button").count();
    const status = await page.evaluate(async (move) => {
      const id = location.pathname.split("/")[2];
      const r = await fetch(`/api/games/${id}/move`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ move }),
      });
      return r.status;
    }, uci);
    assert.equal(status, 200, uci);
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
  }
}

// Fails when anything sticks out of the window sideways.
export async function noSideScroll(page) {
  const [scroll, width, wide] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    window.innerWidth,
    [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 5)
      .map((e) => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
  ]);
  assert.ok(scroll <= width, `page is ${scroll}px wide in a ${width}px window: ${wide.join(", ")}`);
}

// The rectangle the board's squares cover (holes left out), in CSS pixels.
export async function boardRect(page) {
  return page.evaluate(() => {
    const rects = [...document.querySelectorAll("#board .sq:not(.hole)")].map((e) => e.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left));
    const top = Math.min(...rects.map((r) => r.top));
    const right = Math.max(...rects.map((r) => r.right));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    return { left, top, right, bottom, width: right - left, height: bottom - top };
  });
}

// Routes the game sockets `page` opens from now on through the test
// (Playwright's routeWebSocket): every message passes unchanged, except
// that the moves the page sends (`{"t":"move",...}`) first go to
// `sock.onMove(msg)` when it is set, which may hold one (await), answer
// it itself (return the message to send the page instead) or pass it on
// (return null). `sock.answers` lists the acks and errors the page got;
// `sock.answered(n)` waits until there are `n` of them. `sock.cut()`
// closes the page's sockets and refuses new ones until `sock.restore()`.
export async function routeGameSocket(page) {
  /** @type {any[]} */
  const open = [];
  const sock = {
    down: false,
    cut: () => {
      sock.down = true;
      for (const ws of open.splice(0)) ws.close();
    },
    restore: () => {
      sock.down = false;
    },
    /** @type {null | ((msg: any) => Promise<any> | any)} */
    onMove: null,
    /** @type {any[]} */
    answers: [],
    answered: (n, timeout = 10000) =>
      new Promise((resolve, reject) => {
        const t0 = Date.now();
        const check = () => {
          if (sock.answers.length >= n) resolve(sock.answers[n - 1]);
          else if (Date.now() - t0 > timeout) reject(new Error(`${sock.answers.length} socket answers, not ${n}`));
          else setTimeout(check, 20);
        };
        check();
      }),
  };
  const hear = (text) => {
    try {
      const msg = JSON.parse(String(text));
      if (msg.t === "ack" || msg.t === "error") sock.answers.push(msg);
    } catch (_) {
      // not JSON: passed on as it is
    }
  };
  await page.routeWebSocket(/\/api\/games\/\w+\/ws(\?.*)?$/, (ws) => {
    if (sock.down) {
      ws.close();
      return;
    }
    open.push(ws);
    const server = ws.connectToServer();
    ws.onMessage(async (text) => {
      let msg = null;
      try {
        msg = JSON.parse(String(text));
      } catch (_) {
        // not JSON: passed on
      }
      if (msg && msg.t === "move" && sock.onMove) {
        const reply = await sock.onMove(msg);
        if (reply) {
          hear(JSON.stringify(reply));
          ws.send(JSON.stringify(reply));
          return;
        }
      }
      server.send(text);
    });
    server.onMessage((text) => {
      hear(text);
      ws.send(text);
    });
  });
  return sock;
}

/** Every email in the Maildir `dir` (aiosmtpd's), soft line breaks undone. */
export function readMaildir(dir) {
  const out = [];
  for (const sub of ["new", "cur"]) {
    let names = [];
    try {
      names = readdirSync(join(dir, sub));
    } catch (_) {
      continue;
    }
    for (const n of names) {
      out.push(readFileSync(join(dir, sub, n), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "="));
    }
  }
  return out;
}
