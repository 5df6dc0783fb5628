// A game through nginx (TLS, HTTP/2, WebSocket) from headless Chromium,
// with the database stopped for 10 s in the middle. Run by
// scripts/deploy-test.sh, which sets:
//   BASE      the https URL of nginx (self-signed certificate)
//   PG_STOP   a shell command that stops PostgreSQL
//   PG_START  a shell command that starts it again
// Exits non-zero, saying what failed, on any failure.

import { execSync } from "node:child_process";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

const BASE = process.env.BASE;
const REASON = "the database is unavailable; try again shortly";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const step = (text) => console.log(`-- ${text}`);

// In the page: a socket to the game and a move sent on it. Resolves to
// {ack, v} or {error} or {closed: code, reason}.
async function socketMove(page, id, uci) {
  return page.evaluate(
    ({ id, uci }) =>
      new Promise((resolve) => {
        const url = `wss://${location.host}/api/games/${id}/ws`;
        const ws = new WebSocket(url);
        let result = null;
        const done = (r) => {
          if (!result) {
            result = r;
            resolve(r);
          }
        };
        const timer = setTimeout(() => done({ timeout: true }), 15000);
        ws.onopen = () => ws.send(JSON.stringify({ t: "move", a: 1, d: { u: uci } }));
        ws.onmessage = (ev) => {
          const m = JSON.parse(ev.data);
          if (m.t === "ack" && m.a === 1) {
            clearTimeout(timer);
            ws.close();
            done({ ack: true, v: m.v });
          } else if (m.t === "error" && m.a === 1) {
            // Wait for the close that may follow (an outage).
            setTimeout(() => {
              clearTimeout(timer);
              done({ error: m.d.error, closed: ws.closeCode });
            }, 1000);
          }
        };
        ws.onclose = (ev) => {
          ws.closeCode = ev.code;
          ws.closeReason = ev.reason;
          if (result === null) {
            setTimeout(() => {
              clearTimeout(timer);
              done({ closed: ev.code, reason: ev.reason });
            }, 50);
          }
        };
      }),
    { id, uci },
  );
}

// In the page: a socket opened now and kept (window.__held), and a move
// sent on it later; resolves like socketMove.
async function holdSocket(page, id) {
  await page.evaluate(
    (id) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`wss://${location.host}/api/games/${id}/ws`);
        window.__held = { ws, messages: [], closed: null };
        ws.onopen = () => resolve();
        ws.onerror = () => reject(new Error("the socket did not open"));
        ws.onmessage = (ev) => window.__held.messages.push(JSON.parse(ev.data));
        ws.onclose = (ev) => (window.__held.closed = { code: ev.code, reason: ev.reason });
      }),
    id,
  );
}

async function moveOnHeldSocket(page, uci) {
  return page.evaluate(
    (uci) =>
      new Promise((resolve) => {
        const h = window.__held;
        h.ws.send(JSON.stringify({ t: "move", a: 7, d: { u: uci } }));
        const started = Date.now();
        const poll = () => {
          const m = h.messages.find((m) => m.a === 7);
          if (m && (h.closed || m.t === "ack" || Date.now() - started > 8000)) {
            resolve({ reply: m, closed: h.closed });
          } else if (Date.now() - started > 15000) {
            resolve({ timeout: true, closed: h.closed });
          } else {
            setTimeout(poll, 50);
          }
        };
        poll();
      }),
    uci,
  );
}

async function api(page, method, path, body) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const r = await fetch(path, {
        method,
        headers: body ? { "content-type": "application/json" } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await r.text();
      let json = null;
      try {
        json = JSON.parse(text);
      } catch {}
      return { status: r.status, json, text, retryAfter: r.headers.get("retry-after") };
    },
    { method, path, body },
  );
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
let failed = false;
try {
  const white = await browser.newContext({ ignoreHTTPSErrors: true });
  const black = await browser.newContext({ ignoreHTTPSErrors: true });
  const pw = await white.newPage();
  const pb = await black.newPage();
  const resp = await pw.goto(BASE + "/");
  assert.equal(resp.status(), 200, "the page through nginx");

  step("white creates a friend game through the proxy");
  const created = await api(pw, "POST", "/api/games", { mode: "friend", color: "white" });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id;
  const invite = created.json.invite;
  assert.ok(invite, "the creator's view carries the invitation's token");
  const cookies = await white.cookies();
  const seat = cookies.find((c) => c.name === "sb_player");
  assert.ok(seat, "the seat cookie is set");
  assert.equal(seat.secure, true, "the seat cookie is Secure over https");

  step("black joins and both open the game's page");
  await pb.goto(`${BASE}/g/${id}?invite=${invite}`);
  const joined = await api(pb, "POST", `/api/games/${id}/join?invite=${invite}`);
  assert.equal(joined.status, 200, joined.text);
  assert.equal(joined.json.you, "black", joined.text);
  await pw.goto(`${BASE}/g/${id}`);

  const acked = [];
  const play = async (page, uci) => {
    const r = await socketMove(page, id, uci);
    assert.ok(r.ack, `${uci} by WebSocket: ${JSON.stringify(r)}`);
    acked.push(uci);
  };
  step("moves by WebSocket through nginx");
  await play(pw, "e2e4");
  await play(pb, "e7e5");
  await play(pw, "g1f3");
  await play(pb, "b8c6");

  await holdSocket(pw, id);
  step("PostgreSQL stopped");
  const stopped = Date.now();
  execSync(process.env.PG_STOP, { stdio: "inherit" });

  // An open socket: the move is refused with the reason, and the socket
  // closed with 1013 (try again later).
  const refused = await moveOnHeldSocket(pw, "f1c4");
  const told = JSON.stringify(refused);
  assert.equal(refused.reply && refused.reply.t, "error", `a move during the outage: ${told}`);
  assert.equal(refused.reply.d.error, REASON, `a move during the outage: ${told}`);
  assert.equal(refused.closed && refused.closed.code, 1013, `the socket is closed with 1013: ${told}`);
  // A new socket is refused while the database is out of reach.
  const fresh = await socketMove(pw, id, "f1c4");
  assert.ok(!fresh.ack, `a new socket during the outage: ${JSON.stringify(fresh)}`);
  const list = await api(pw, "GET", "/api/games");
  assert.equal(list.status, 503, `a request during the outage: ${list.status} ${list.text}`);
  assert.deepEqual(list.json, { error: REASON });
  assert.ok(Number(list.retryAfter) > 0, "Retry-After");

  const wait = 10000 - (Date.now() - stopped);
  if (wait > 0) await sleep(wait);
  step("PostgreSQL started again (the servers are not restarted)");
  execSync(process.env.PG_START, { stdio: "inherit" });

  // The socket reconnects: the refused move is sent again until taken.
  let again = null;
  for (let i = 0; i < 30; i++) {
    again = await socketMove(pw, id, "f1c4");
    if (again.ack) break;
    await sleep(1000);
  }
  assert.ok(again && again.ack, `f1c4 after the outage: ${JSON.stringify(again)}`);
  acked.push("f1c4");
  await play(pb, "g8f6");
  await play(pw, "d2d3");

  step("every acknowledged move is in the game");
  const game = await api(pb, "GET", `/api/games/${id}`);
  assert.equal(game.status, 200, game.text);
  assert.deepEqual(
    game.json.history.map((h) => h.uci),
    acked,
  );
  // The pages' own sockets reconnected too: both show the last move.
  for (const page of [pw, pb]) {
    await page.waitForFunction(
      (n) => document.querySelectorAll("#moves button").length === n,
      acked.length,
      { timeout: 15000 },
    );
  }
  console.log(`ok: game ${id}, ${acked.length} moves, all kept`);
} catch (e) {
  failed = true;
  console.error("FAILED:", e.message);
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
