// Screenshots of the play screens at a desktop (1920x1080) and a phone
// (375x667) size: the creation screen, a friend game with clocks (the
// player's and the spectator's view) and the games page. Also checks that
// nothing sticks out sideways at either size.

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startBrowser, square, noSideScroll, SCREENSHOTS, setUp } from "./harness.js";

const env = setUp({ browsers: 0 });

for (const [name, viewport] of [
  ["desktop", { width: 1920, height: 1080 }],
  ["phone", { width: 375, height: 667 }],
]) {
  test(`the play screens at ${viewport.width}x${viewport.height}`, async () => {
    const host = await startBrowser(viewport);
    const guest = await startBrowser(viewport);
    const watcher = await startBrowser(viewport);
    try {
      const errors = [];
      const A = await host.context.newPage();
      A.on("pageerror", (e) => errors.push(e.message));
      await A.goto(env.server.url);
      await A.waitForSelector("#create-friend");
      await noSideScroll(A);
      await A.screenshot({ path: join(SCREENSHOTS, `create-${name}.png`), fullPage: true });
      await A.selectOption("#friend-clock", { label: "5+3" });
      await A.click("#create-friend");
      await A.waitForSelector("#invite:not([hidden])");
      await noSideScroll(A);
      await A.screenshot({ path: join(SCREENSHOTS, `invite-${name}.png`), fullPage: true });
      const link = await A.locator("#invite-link").inputValue();
      const B = await guest.context.newPage();
      B.on("pageerror", (e) => errors.push(e.message));
      await B.goto(link);
      await B.click("#join");
      await B.waitForSelector("#join-box", { state: "hidden" });
      const moves = [
        [A, "e2", "e4"],
        [B, "e7", "e5"],
        [A, "g1", "f3"],
      ];
      for (const [n, [p, from, to]] of moves.entries()) {
        // The opponent's move has arrived before this one is played.
        await p.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n);
        await square(p, from).click();
        await square(p, to).click();
        await p.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n + 1);
      }
      await B.waitForFunction(() => document.querySelectorAll("#moves button").length === 3);
      await B.click("#draw");
      await A.waitForSelector("#draw-accept");
      const C = await watcher.context.newPage();
      C.on("pageerror", (e) => errors.push(e.message));
      await C.goto(link);
      await C.waitForSelector('#conn[data-state="live"]');
      await A.waitForSelector('.player[data-color="black"] .clock.running');
      await noSideScroll(A);
      await A.screenshot({ path: join(SCREENSHOTS, `game-${name}.png`), fullPage: true });
      await noSideScroll(C);
      await C.screenshot({ path: join(SCREENSHOTS, `spectator-${name}.png`), fullPage: true });
      await A.goto(new URL("/games?list=ongoing", env.server.url).href);
      await A.waitForSelector("#games-table tbody tr");
      await A.screenshot({ path: join(SCREENSHOTS, `games-${name}.png`), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await host.close();
      await guest.close();
      await watcher.close();
    }
  });
}
