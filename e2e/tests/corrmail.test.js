// A correspondence Hop Chess game across a server `kill -9` (issue 42's
// tests), with the "your turn" email received by a real SMTP server
// (Python's aiosmtpd, started here). Ann and Bob sign up in two browsers
// and confirm their addresses through the confirmation emails' links
// (each opens a page of the site saying so). Ann starts a Hop Chess game
// of 3 days per move, Bob joins. The SMTP server is stopped, Ann moves
// (the server acknowledges the move), and the server is killed with
// SIGKILL at once, before it could send anything. The SMTP server comes
// back, the server starts again on the same data directory: the game and
// its move are there, Bob's "your turn" email arrives once (it waited in
// the outbox, or the restart wrote it), its link opens the game in Bob's
// browser with Bob to move, and its unsubscribe link opens a page saying
// what stopped. Screenshots of the link pages at 375x667 and 1280x800
// (into SPRINGBOARD_SHOTS when set, else e2e/screenshots).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCREENSHOTS, startServer, startBrowser, openTab, noSideScroll, readMaildir } from "./harness.js";

const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;
// Debian's python3-aiosmtpd is for /usr/bin/python3, which another python3
// on the PATH (pyenv's) may hide.
const PYTHON = ["python3", "/usr/bin/python3"].find((p) => spawnSync(p, ["-c", "import aiosmtpd"]).status === 0);
const hasSmtpd = PYTHON !== undefined;
if (!hasSmtpd && process.env.CI) throw new Error("python3-aiosmtpd is missing (scripts/packages.sh installs it)");

/** @type {{smtp: any, smtpPort: number, maildir: string, dir: string, data: string, server: any, browsers: any[]}} */
const env = { smtp: null, smtpPort: 0, maildir: "", dir: "", data: "", server: null, browsers: [] };

/** A free loopback port. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {any} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/** Whether something listens on loopback port `port`. */
function listening(port) {
  return new Promise((r) => {
    const s = connect(port, "127.0.0.1", () => {
      s.end();
      r(true);
    });
    s.on("error", () => r(false));
  });
}

/** Starts aiosmtpd on `env.smtpPort`, delivering into `env.maildir`. */
async function startSmtp() {
  env.smtp = spawn(/** @type {string} */ (PYTHON), ["-m", "aiosmtpd", "-n", "-l", `127.0.0.1:${env.smtpPort}`, "-c", "aiosmtpd.handlers.Mailbox", env.maildir], { stdio: "ignore" });
  for (let i = 0; i < 200; i++) {
    if (await listening(env.smtpPort)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("aiosmtpd did not start");
}

async function stopSmtp() {
  const exited = new Promise((r) => env.smtp.on("exit", r));
  env.smtp.kill("SIGKILL");
  await exited;
  env.smtp = null;
  for (let i = 0; i < 100 && (await listening(env.smtpPort)); i++) await new Promise((r) => setTimeout(r, 50));
}

const SERVER_ARGS = () => ["--smtp", `smtp://127.0.0.1:${env.smtpPort}`, "--smtp-from", "Springboard <noreply@play.test>"];

before(async () => {
  if (!hasSmtpd) return;
  env.smtpPort = await freePort();
  env.dir = mkdtempSync(join(tmpdir(), "springboard-corrmail-"));
  env.maildir = join(env.dir, "mail");
  env.data = join(env.dir, "data");
  mkdirSync(env.data);
  await startSmtp();
  env.server = await startServer({ dataDir: env.data, args: SERVER_ARGS() });
  for (let i = 0; i < 2; i++) env.browsers.push(await startBrowser());
});

after(async () => {
  for (const b of env.browsers) await b.close();
  if (env.server) await env.server.kill();
  if (env.smtp) env.smtp.kill("SIGKILL");
  if (env.dir) rmSync(env.dir, { recursive: true, force: true });
});

/** Every email received so far, soft line breaks undone. */
const mails = () => readMaildir(env.maildir);

/** The emails with every one of `needles`, once there is one (up to 20 s). */
async function mailsWith(...needles) {
  for (let i = 0; i < 400; i++) {
    const found = mails().filter((t) => needles.every((n) => t.includes(n)));
    if (found.length > 0) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no email with ${needles.join(", ")}: ${mails().join("\n----\n")}`);
}

/** The first link in `text` that starts with `prefix`. */
function linkIn(text, prefix) {
  const at = text.indexOf(prefix);
  assert.ok(at >= 0, `no ${prefix} in ${text}`);
  return text.slice(at).split(/\s/)[0];
}

async function signUp(page, name) {
  await page.goto(env.server.url);
  await page.click("#account-open");
  await page.waitForSelector("#account-dialog[open]");
  await page.fill("#account-user", name);
  await page.fill("#account-password", "a good password");
  await page.click("#account-signup");
  await page.waitForSelector("#account-name:visible");
}

/** Adds `address` to the signed-in account of `page` and opens the
 * confirmation email's link there: the page says it is confirmed. */
async function confirmAddress(page, address, shots) {
  await page.click("#notify-open");
  await page.waitForSelector("#notify-email-form:visible");
  await page.fill("#notify-email-address", address);
  await page.click("#notify-email-save");
  await page.waitForFunction(() => document.getElementById("notify-email-state").textContent.includes("open it to confirm"));
  await page.click("#notify-close");
  const [mail] = await mailsWith(`To: ${address}`, "Subject: Confirm your email address");
  const link = linkIn(mail, `${env.server.url}email/confirm/`);
  if (shots) {
    for (const [w, h] of [[375, 667], [1280, 800]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(link);
      await page.waitForFunction(() => document.getElementById("email-title").textContent === "Address not confirmed" || document.getElementById("email-title").textContent === "Email address confirmed");
      await page.screenshot({ path: join(SHOTS, `email-confirm-${w}x${h}.png`) });
      await noSideScroll(page);
    }
    await page.setViewportSize({ width: 1100, height: 760 });
  } else {
    await page.goto(link);
  }
  await page.waitForSelector("#email-screen:visible");
  // The first opening confirmed it (a second one says the link is used).
  const state = await page.evaluate(async () => (await fetch("/api/notify/email")).json());
  assert.equal(state.confirmed, true, JSON.stringify(state));
}

test("a correspondence Hop Chess game survives kill -9, and the your-turn email's link opens it", { skip: !hasSmtpd && "python3-aiosmtpd is missing" }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const ann = `Ann_${suffix}`;
  const bob = `Bob_${suffix}`;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  await signUp(A, ann);
  await signUp(B, bob);
  await confirmAddress(A, `ann${suffix}@example.org`, false);
  const bobAddress = `bob${suffix}@example.org`;
  await confirmAddress(B, bobAddress, true);
  assert.equal(await B.textContent("#email-title"), "Address not confirmed");
  assert.match(await B.textContent("#email-message"), /not valid/);

  // Ann's correspondence Hop Chess game, 3 days per move; Bob joins.
  await A.goto(env.server.url);
  await A.waitForSelector("#create-friend");
  await A.selectOption("#variant", "hopchess");
  await A.selectOption("#friend-color", "white");
  await A.selectOption("#friend-clock", { label: "3 days per move" });
  await A.click("#create-friend");
  await A.waitForSelector("#invite:visible");
  const invite = await A.inputValue("#invite-link");
  const id = await A.evaluate(() => location.pathname.split("/")[2]);
  await B.goto(invite);
  await B.click("#join");
  await B.waitForFunction(() => document.querySelector("#status").textContent.length > 0);

  // The SMTP server goes away; Ann moves and the server acknowledges it;
  // the server is killed at once: nothing could be sent.
  await stopSmtp();
  const moved = await A.evaluate(async (gid) => {
    const r = await fetch(`/api/games/${gid}/move`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ move: "e2e4", ply: 0 }) });
    return [r.status, (await r.json()).plies];
  }, id);
  assert.deepEqual(moved, [200, 1]);
  const port = env.server.port;
  await env.server.kill();
  env.server = null;
  assert.equal(mails().filter((m) => m.includes(`/g/${id}`)).length, 0);

  // The SMTP server and the server come back, on the same data and port.
  await startSmtp();
  env.server = await startServer({ dataDir: env.data, port, args: SERVER_ARGS() });
  const game = await A.evaluate(async (gid) => (await fetch(`/api/games/${gid}`)).json(), id);
  assert.equal(game.variant, "hopchess");
  assert.equal(game.plies, 1, JSON.stringify(game).slice(0, 400));

  // Bob's "your turn" email arrives, once.
  const [turn] = await mailsWith(`To: ${bobAddress}`, `/g/${id}`);
  assert.ok(turn.includes(`Subject: Your turn against ${ann}`), turn);
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(mails().filter((m) => m.includes(`/g/${id}`)).length, 1, "one your-turn email");

  // Its link opens the game in Bob's browser, Bob to move.
  const gameLink = linkIn(turn, `${env.server.url}g/`);
  assert.equal(gameLink, `${env.server.url}g/${id}`);
  await B.goto(gameLink);
  await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  await B.waitForFunction(() => /Black to move|Your turn|your move/i.test(document.querySelector("#status").textContent));

  // Its unsubscribe link opens a page saying what stopped.
  const unsubscribe = linkIn(turn, `${env.server.url}email/unsubscribe/`);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    const { page: U } = await openTab(env.browsers[1]);
    await U.setViewportSize({ width: w, height: h });
    await U.goto(unsubscribe);
    await U.waitForFunction(() => document.getElementById("email-message").textContent.length > 0);
    await U.screenshot({ path: join(SHOTS, `email-unsubscribe-${w}x${h}.png`) });
    await noSideScroll(U);
    if (w === 375) {
      assert.equal(await U.textContent("#email-title"), "Unsubscribed");
      assert.match(await U.textContent("#email-message"), /no more emails of your turn/);
    }
    await U.close();
  }
  const kinds = await B.evaluate(async () => (await fetch("/api/notify/email")).json());
  assert.deepEqual(kinds.kinds, ["challenge", "game_ended"]);
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
});
