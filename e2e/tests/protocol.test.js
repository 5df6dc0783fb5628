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
  // Who is connected: the presence dots.
  crowd: [["crowd", { black: false, spectators: 0, white: true }]],
  // A move over the socket acked: the new version, as for a state.
  ack: [["state", 3]],
  // The page plays over HTTP, so a socket error (the answer to a socket
  // move) changes nothing on it; the socket stays live.
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
