// Starts Springboard's server on a free loopback port and a fresh headless
// Chromium (Debian's /usr/bin/chromium through playwright-core).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, "..", "..");

export const SPRINGBOARD = process.env.SPRINGBOARD_BIN || join(repo, "target", "debug", "springboard");
export const SCREENSHOTS = join(here, "..", "screenshots");

// Runs `springboard serve --port 0` and waits for the URL it prints.
export function startServer() {
  return new Promise((resolve, reject) => {
    const proc = spawn(SPRINGBOARD, ["serve", "--host", "127.0.0.1", "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error("the server printed no URL within 20 s: " + out + err));
    }, 20000);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => proc.kill() });
      }
    });
    proc.stderr.on("data", (d) => (err += d));
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}): ${err}`));
    });
  });
}

export async function startBrowser() {
  const profile = mkdtempSync(join(tmpdir(), "springboard-e2e-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width: 1100, height: 760 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function square(page, name) {
  return page.locator(`[data-square="${name}"]`);
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
