// Notifications (issue 42, item 6): two accounts in two browsers on a
// server started with --smtp (a real SMTP server, Python's aiosmtpd,
// started here). Bob adds an email address in the notifications dialog
// and opens the confirmation link from the email (a page of the site
// says the address is confirmed); Ann sends Bob a
// personal challenge: Bob's badge shows it live, the list opens and names
// Ann; the challenge's email arrives and its link opens the lobby with the
// challenge. Then a correspondence game: Ann's move brings Bob's "your
// turn" live, and its email's link opens the game. Screenshots of the
// dialog at 375x667 and 1280x800 (into SPRINGBOARD_SHOTS when set, else
// e2e/screenshots).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCREENSHOTS, startServer, startBrowser, openTab, readMaildir } from "./harness.js";

const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;
// Debian's python3-aiosmtpd is for /usr/bin/python3, which another python3
// on the PATH (pyenv's) may hide.
const PYTHON = ["python3", "/usr/bin/python3"].find((p) => spawnSync(p, ["-c", "import aiosmtpd"]).status === 0);
const hasSmtpd = PYTHON !== undefined;
if (!hasSmtpd && process.env.CI) throw new Error("python3-aiosmtpd is missing (scripts/packages.sh installs it)");

/** @type {{smtp: any, maildir: string, dir: string, server: any, browsers: any[]}} */
const env = { smtp: null, maildir: "", dir: "", server: null, browsers: [] };

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

before(async () => {
  if (!hasSmtpd) return;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "springboard-mail-"));
  env.maildir = join(dir, "mail");
  env.smtp = spawn(/** @type {string} */ (PYTHON), ["-m", "aiosmtpd", "-n", "-l", `127.0.0.1:${port}`, "-c", "aiosmtpd.handlers.Mailbox", env.maildir], { stdio: "ignore" });
  env.dir = dir;
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((r) => {
      const s = connect(port, "127.0.0.1", () => { s.end(); r(true); });
      s.on("error", () => r(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  env.server = await startServer({ args: ["--smtp", `smtp://127.0.0.1:${port}`, "--smtp-from", "Springboard <noreply@play.test>"] });
  for (let i = 0; i < 2; i++) env.browsers.push(await startBrowser());
});

after(async () => {
  for (const b of env.browsers) await b.close();
  if (env.server) await env.server.stop();
  if (env.smtp) env.smtp.kill();
  if (env.dir) rmSync(env.dir, { recursive: true, force: true });
});

/** Every email received so far, soft line breaks undone. */
const mails = () => readMaildir(env.maildir);

/** The first email with `needle`, waiting up to 10 s. */
async function mailWith(needle) {
  for (let i = 0; i < 200; i++) {
    const m = mails().find((t) => t.includes(needle));
    if (m) return m;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no email with ${needle}: ${mails().join("\n----\n")}`);
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

test("a personal challenge shows live, the list opens, and the emails' links open what they name", { skip: !hasSmtpd && "python3-aiosmtpd is missing" }, async () => {
  mkdirSync(SHOTS, { recursive: true });
  const suffix = Date.now() % 100000;
  const ann = `Ann_${suffix}`;
  const bob = `Bob_${suffix}`;
  const { page: A, errors: errorsA } = await openTab(env.browsers[0]);
  const { page: B, errors: errorsB } = await openTab(env.browsers[1]);
  await signUp(A, ann);
  await signUp(B, bob);
  await B.waitForSelector("#notify-open:visible");
  assert.equal(await B.isVisible("#notify-badge"), false);

  // Bob adds an address; the confirmation link comes by email.
  await B.click("#notify-open");
  await B.waitForSelector("#notify-dialog[open]");
  await B.waitForSelector("#notify-email-form:visible");
  const address = `bob${suffix}@example.org`;
  await B.fill("#notify-email-address", address);
  await B.click("#notify-email-save");
  await B.waitForFunction(() => document.getElementById("notify-email-state").textContent.includes("open it to confirm"));
  const confirmMail = await mailWith(`To: ${address}`);
  const confirm = linkIn(confirmMail, `${env.server.url}email/confirm/`);
  await B.click("#notify-close");
  await B.goto(confirm);
  await B.waitForFunction(() => document.getElementById("email-title").textContent === "Email address confirmed");
  assert.match(await B.textContent("#email-message"), new RegExp(`${address} is confirmed`));
  await B.goto(env.server.url);
  await B.waitForSelector("#notify-open:visible");

  // Ann challenges Bob by name: Bob's badge counts it, live.
  await A.fill("#lobby-to", bob);
  await A.click("#lobby-post");
  await B.waitForSelector("#notify-badge:visible");
  assert.equal((await B.textContent("#notify-badge")).trim(), "1");
  await B.setViewportSize({ width: 375, height: 667 });
  await B.screenshot({ path: join(SHOTS, "notify-badge-375x667.png") });
  await B.setViewportSize({ width: 1280, height: 800 });
  await B.click("#notify-open");
  await B.waitForSelector("#notify-list li.unread");
  const item = await B.textContent("#notify-list li");
  assert.ok(item.includes(`${ann} challenges you`), item);
  for (const [w, h] of [[375, 667], [1280, 800]]) {
    await B.setViewportSize({ width: w, height: h });
    await B.screenshot({ path: join(SHOTS, `notify-${w}x${h}.png`) });
  }
  await B.setViewportSize({ width: 1280, height: 800 });
  await B.click("#notify-read-all");
  await B.waitForSelector("#notify-badge", { state: "hidden" });
  await B.click("#notify-close");

  // The challenge's email: its link opens the lobby, where the challenge is.
  const challengeMail = await mailWith(`Subject: ${ann} challenges you`);
  const open = challengeMail.slice(challengeMail.indexOf("Open it: ") + "Open it: ".length).split(/\s/)[0];
  assert.ok(open.startsWith(env.server.url), open);
  const { page: B2 } = await openTab(env.browsers[1]);
  await B2.goto(open);
  await B2.waitForSelector("#lobby-table tbody tr");
  assert.ok((await B2.textContent("#lobby-table tbody")).includes(ann));
  await B2.close();

  // A correspondence game (a friend game without a clock): Ann's move is
  // Bob's turn, live and by email; the email's link opens the game.
  const game = await A.evaluate(async () => {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ variant: "chess", mode: "friend" }) });
    return r.json();
  });
  const joined = await B.evaluate(async ([id, invite]) => {
    const r = await fetch(`/api/games/${id}/join?invite=${invite}`, { method: "POST" });
    return r.status;
  }, [game.id, game.invite]);
  assert.equal(joined, 200);
  const moved = await A.evaluate(async (id) => (await fetch(`/api/games/${id}/move`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ move: "e2e4", ply: 0 }) })).status, game.id);
  assert.equal(moved, 200);
  await B.waitForSelector("#notify-badge:visible");
  const turnMail = await mailWith(`/g/${game.id}`);
  assert.ok(turnMail.includes(`Subject: Your turn against ${ann}`), turnMail);
  const gameLink = linkIn(turnMail, `${env.server.url}g/`);
  await B.goto(gameLink);
  await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  assert.deepEqual(errorsA, []);
  assert.deepEqual(errorsB, []);
});
