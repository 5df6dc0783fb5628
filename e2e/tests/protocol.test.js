// The page's side of the socket protocol, without a browser or a server:
// the page's LiveSocket (crates/web/static/api.js) fed the fixtures of
// crates/web/tests/fixtures/ws/, the exact texts the server sends (its Rust
// test, crates/web/tests/web/protocol.rs, checks the server against the same
// files), and what the page sends checked against the client fixtures.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const fixtures = join(root, "crates", "web", "tests", "fixtures", "ws");
const fixture = (name) => readFileSync(join(fixtures, name), "utf8").replace(/\n$/, "");

// api.js is an ES module outside any package.json with "type": "module":
// imported from its text (it imports nothing).
const source = readFileSync(join(root, "crates", "web", "static", "api.js"), "utf8");
const { LiveSocket } = await import(
  `data:text/javascript;base64,${Buffer.from(source).toString("base64")}`
);

// A stand-in for the browser's WebSocket: records what the page sends.
class FakeSocket {
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.OPEN;
    this.sent = [];
    this.onopen = null;
    this.onmessage = null;
    this.onclose = null;
    this.onerror = null;
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(text);
  }
  close() {
    this.readyState = 3;
  }
}
globalThis.WebSocket = /** @type {any} */ (FakeSocket);
globalThis.location = /** @type {any} */ ({ protocol: "http:", host: "test.invalid" });

// A LiveSocket on game "g1" at version 2 whose handlers record each call.
function open() {
  const calls = [];
  const live = new LiveSocket("g1", {
    version: () => 2,
    onState: (v) => calls.push(["state", v]),
    onMove: (msg) => calls.push(["move", msg.v, msg.d.uci, msg.d.san, msg.d.ply]),
    onCrowd: (d) => calls.push(["crowd", d]),
    onStatus: (s) => calls.push(["status", s]),
    onOpen: () => calls.push(["open"]),
  });
  const ws = FakeSocket.made[FakeSocket.made.length - 1];
  assert.equal(ws.url, "ws://test.invalid/api/games/g1/ws?v=2");
  ws.onopen();
  calls.length = 0;
  return { live, ws, calls };
}

// What the page does with each server message.
const expected = {
  // The game changed: the page re-reads it (live.js fetches the view when v is newer).
  state: [["state", 3]],
  // A move: the page plays it with the rules core (live.js's applyMove).
  move: [["move", 3, "e2e4", "e4", 1]],
  // Who is connected: the presence dots.
  crowd: [["crowd", { black: false, spectators: 0, white: true }]],
  // A move over the socket acked: the new version, as for a state.
  ack: [["state", 3]],
  // An error answering no move the page is waiting for changes nothing
  // on it; the socket stays live.
  error: [],
  // An answer to a ping: only that the connection is alive.
  pong: [],
};

test("every server fixture has its expected effect on the page", () => {
  const kinds = readdirSync(fixtures)
    .filter((n) => n.startsWith("server-") && n.endsWith(".json"))
    .map((n) => n.slice("server-".length, -".json".length))
    .sort();
  assert.deepEqual(kinds, Object.keys(expected).sort());
  for (const kind of kinds) {
    const { live, ws, calls } = open();
    ws.onmessage({ data: fixture(`server-${kind}.json`) });
    assert.deepEqual(calls, expected[kind], kind);
    live.close();
  }
});

test("a server message is heard: the connection stays live", () => {
  const { live, ws, calls } = open();
  live.lastHeard = Date.now() - 9000;
  ws.onmessage({ data: fixture("server-pong.json") });
  assert.ok(Date.now() - live.lastHeard < 1000);
  live.tick();
  assert.deepEqual(calls, []);
  assert.equal(live.ws, ws);
  live.close();
});

test("the page's ping is the client-ping fixture", () => {
  const { live, ws } = open();
  live.lastPing = Date.now() - 6000;
  live.tick();
  assert.deepEqual(ws.sent, [fixture("client-ping.json")]);
  live.close();
});

test("the page's move is the client-move fixture; its ack resolves it, an error rejects it", async () => {
  const { live, ws, calls } = open();
  const acked = live.move("e2e4", 0);
  assert.deepEqual(JSON.parse(ws.sent[0]), JSON.parse(fixture("client-move.json")));
  ws.onmessage({ data: fixture("server-move.json") });
  ws.onmessage({ data: fixture("server-ack.json") });
  assert.equal(await acked, 3);
  assert.deepEqual(calls, [
    ["move", 3, "e2e4", "e4", 1],
    ["state", 3],
  ]);
  // The next move is refused: its promise rejects with the reason.
  const refused = live.move("d2d4", 1);
  const second = JSON.parse(ws.sent[1]);
  assert.equal(second.a, 2);
  ws.onmessage({ data: fixture("server-error.json").replace('"a":1', '"a":2') });
  await assert.rejects(refused, (err) => err.socket === true && err.message === "not your turn");
  // A move whose answer never comes: the socket closing rejects it.
  const lost = live.move("d2d4", 1);
  ws.onclose();
  await assert.rejects(lost, (err) => err.closed === true);
  // Without an open socket the page posts the move instead.
  assert.equal(live.move("d2d4", 1), null);
  live.close();
});
