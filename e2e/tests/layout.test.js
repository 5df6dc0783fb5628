// The board's size and layout (issue 11, item 11) in headless Chromium:
// the board fills the room it has on a desktop (1920x1080) and a phone
// (375x667), a drag handle resizes it (remembered in localStorage), the
// flipped Jumping King board sits next to its rank numbers, reserve counts
// are legible beside the men, and the Jumping King's "which man" picker
// fits a phone's screen. Also takes the screenshots of every game in mid
// game at both sizes (e2e/screenshots/midgame-*.png).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  startBrowser,
  square,
  newLocalGame,
  playByApi,
  noSideScroll,
  boardRect,
  SCREENSHOTS,
  setUp,
  openTab,
  startServer,
} from "./harness.js";

const env = setUp({ browsers: 0 });

const DESKTOP = { width: 1920, height: 1080 };
const PHONE = { width: 375, height: 667 };

async function withPage(viewport, body) {
  const browser = await startBrowser(viewport);
  try {
    const { page, errors } = await openTab(browser);
    await body(page);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
}

test("the board fills a 1920x1080 screen, whole, with the move list beside it", async () => {
  await withPage(DESKTOP, async (page) => {
    await newLocalGame(page, env.server.url, "chess");
    const b = await boardRect(page);
    assert.ok(b.width >= 760, `the board is ${b.width}px wide`);
    assert.ok(Math.abs(b.width - b.height) < 1, `a square board: ${b.width}x${b.height}`);
    assert.ok(b.bottom <= DESKTOP.height, `the board ends at ${b.bottom}px, below the screen`);
    const aside = await page.locator("aside").boundingBox();
    assert.ok(aside.x >= b.right, "the move list stands beside the board");
    // The games with reserves above and below the board fit too.
    await newLocalGame(page, env.server.url, "hoplit");
    const h = await boardRect(page);
    const below = await page.locator("#reserve-bottom").boundingBox();
    assert.ok(h.width >= 640, `the Hoplit Chess board is ${h.width}px wide`);
    assert.ok(below.y + below.height <= DESKTOP.height, `the lower reserve ends at ${below.y + below.height}px`);
    await noSideScroll(page);
  });
});

test("the board fills a 375x667 phone's width", async () => {
  await withPage(PHONE, async (page) => {
    for (const variant of ["chess", "jumpingking"]) {
      await newLocalGame(page, env.server.url, variant);
      const b = await boardRect(page);
      const cols = variant === "jumpingking" ? 6 : 8;
      assert.ok(b.width >= 340, `${variant}: the board is ${b.width}px wide on a 375px phone`);
      assert.ok(b.right <= PHONE.width, `${variant}: the board ends at ${b.right}px`);
      assert.ok(Math.abs(b.width / cols - b.height / 8) < 1, `${variant}: square squares (${b.width}x${b.height})`);
      await noSideScroll(page);
    }
  });
});

test("an upright tablet (768x1024): the board takes the width, the move list goes under it", async () => {
  await withPage({ width: 768, height: 1024 }, async (page) => {
    await newLocalGame(page, env.server.url, "hoplit");
    const b = await boardRect(page);
    assert.ok(b.width >= 600, `the board is ${b.width}px wide`);
    const aside = await page.locator("aside").boundingBox();
    assert.ok(aside.y >= b.bottom, "the move list is under the board");
    await noSideScroll(page);
  });
});

test("the board's drag handle resizes it, and the size is remembered", async () => {
  await withPage(DESKTOP, async (page) => {
    await newLocalGame(page, env.server.url, "chess");
    const full = await boardRect(page);
    const handle = page.locator("#board-resize");
    const h = await handle.boundingBox();
    const [x, y] = [h.x + h.width * 0.75, h.y + h.height * 0.75];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x - 150, y - 150, { steps: 5 });
    await page.mouse.up();
    const small = await boardRect(page);
    assert.ok(Math.abs(full.width - 150 - small.width) < 12, `${full.width}px dragged by 150px became ${small.width}px`);
    assert.ok(Number(await page.evaluate(() => localStorage.getItem("springboard.boardZoom"))) < 1);
    // Remembered on the next visit.
    await page.reload();
    await page.waitForSelector("#board .sq");
    const again = await boardRect(page);
    assert.ok(Math.abs(again.width - small.width) < 2, `${small.width}px came back as ${again.width}px`);
    // Dragged beyond the room the board has, it fills the room, no more.
    const h2 = await handle.boundingBox();
    await page.mouse.move(h2.x + h2.width * 0.75, h2.y + h2.height * 0.75);
    await page.mouse.down();
    await page.mouse.move(h2.x + 600, h2.y + 600, { steps: 5 });
    await page.mouse.up();
    const back = await boardRect(page);
    assert.ok(Math.abs(back.width - full.width) < 2, `${back.width}px, the room is ${full.width}px`);
    // The handle is a keyboard control too.
    await handle.focus();
    await page.keyboard.press("ArrowDown");
    const smaller = await boardRect(page);
    assert.ok(smaller.width < back.width - 10, `ArrowDown on the handle: ${back.width}px -> ${smaller.width}px`);
  });
});

test("Jumping King: the rank numbers stand next to the board, flipped or not", async () => {
  await withPage(DESKTOP, async (page) => {
    await newLocalGame(page, env.server.url, "jumpingking");
    for (const flipped of [false, true]) {
      if (flipped) {
        const first = await page.locator("#board .coord.file").first().textContent();
        await page.click("#flip");
        await page.waitForFunction((f) => document.querySelector("#board .coord.file").textContent !== f, first);
      }
      const gaps = await page.evaluate(() => {
        const left = Math.min(...[...document.querySelectorAll("#board .sq:not(.hole)")].map((e) => e.getBoundingClientRect().left));
        return [...document.querySelectorAll("#board .coord.rank")]
          .filter((l) => l.textContent)
          .map((l) => [l.textContent, Math.round(left - l.getBoundingClientRect().right)]);
      });
      assert.equal(gaps.length, 8);
      for (const [rank, gap] of gaps) assert.ok(gap >= 0 && gap <= 4, `flipped ${flipped}: rank ${rank} is ${gap}px from the board`);
      const files = await page.locator("#board .coord.file").evaluateAll((ls) => ls.map((l) => l.textContent).join(""));
      assert.equal(files, flipped ? "fedcba" : "abcdef");
    }
  });
});

test("reserve counts are legible and beside the men, not over them", async () => {
  await withPage(DESKTOP, async (page) => {
    await newLocalGame(page, env.server.url, "jumpingking");
    const counts = await page.evaluate(() =>
      [...document.querySelectorAll("#reserve-bottom .token")].map((t) => {
        const c = t.querySelector(".count");
        if (!c) return null;
        const glyph = t.querySelector("svg text, svg circle").getBoundingClientRect();
        const r = c.getBoundingClientRect();
        const style = getComputedStyle(c);
        const overlap =
          Math.max(0, Math.min(r.right, glyph.right) - Math.max(r.left, glyph.left)) *
          Math.max(0, Math.min(r.bottom, glyph.bottom) - Math.max(r.top, glyph.top));
        return { text: c.textContent, overlap: overlap / (r.width * r.height), color: style.color, bg: style.backgroundColor, size: parseFloat(style.fontSize), opacity: style.opacity };
      }),
    );
    const shown = counts.filter(Boolean);
    assert.deepEqual(shown.map((c) => c.text).sort(), ["2", "2", "2", "3"]);
    for (const c of shown) {
      assert.ok(c.overlap < 0.15, `the count ${c.text} covers the man (${(c.overlap * 100).toFixed(0)}% of it)`);
      assert.equal(c.opacity, "1");
      assert.ok(c.size >= 12, `a ${c.size}px count`);
      assert.ok(contrast(c.color, c.bg) >= 4.5, `the count ${c.text} is ${c.color} on ${c.bg}`);
    }
  });
});

// WCAG contrast of two rgb() colours.
function contrast(a, b) {
  const lum = (s) => {
    const [r, g, bl] = s.match(/[\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

test("Jumping King: the 'which man' picker fits a phone's screen", async () => {
  await withPage(PHONE, async (page) => {
    await newLocalGame(page, env.server.url, "jumpingking");
    await playByApi(page, ["a1c2", "f8e6"]);
    await square(page, "c2").click();
    await square(page, "e3").click();
    await page.waitForSelector("#chooser:not([hidden])");
    const outside = await page.evaluate(() =>
      [document.getElementById("chooser"), ...document.querySelectorAll("#chooser button")]
        .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
        .filter(([, r]) => r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight)
        .map(([n, r]) => `${n}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`),
    );
    assert.deepEqual(outside, []);
    await page.screenshot({ path: join(SCREENSHOTS, "jk-chooser-phone.png") });
    await page.locator("#chooser-options button", { hasText: "bishop" }).click();
    await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 3);
  });
});

// Mid-game positions: trampolines, reserves, a half-made Hop Chess turn.
const MIDGAME = {
  chess: { moves: ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"] },
  hopchess: { moves: ["e2e4", "e7e5@e6", "g1f3@d4", "b8c6@d5"], half: ["f1", "c4"] },
  trampoline: { moves: ["e2e4", "e7e5", "f1c4", "b8c6", "@h5", "g8f6"] },
  jumpingking: { moves: ["a1c2", "f8e6", "c2e3b", "e6c5r"] },
  hoplit: { moves: ["e2e4", "e7e5", "g1f3", "b8c6", "H@g1", "d7d6"] },
};

for (const [name, viewport] of [
  ["desktop", DESKTOP],
  ["phone", PHONE],
]) {
  test(`screenshots of every game in mid game at ${viewport.width}x${viewport.height}`, async () => {
    await withPage(viewport, async (page) => {
      for (const [variant, { moves, half }] of Object.entries(MIDGAME)) {
        await newLocalGame(page, env.server.url, variant);
        await playByApi(page, moves);
        if (half) {
          await square(page, half[0]).click();
          await square(page, half[1]).click();
          await page.waitForFunction(() => /trampoline square/.test(document.getElementById("status").textContent));
        }
        const b = await boardRect(page);
        assert.ok(b.right <= viewport.width && b.left >= 0, `${variant}: the board is inside the window`);
        await noSideScroll(page);
        await page.screenshot({ path: join(SCREENSHOTS, `midgame-${variant}-${name}.png`), fullPage: name === "phone" });
      }
    });
  });
}

// Issue 45, item 2 (a phone): the board, the status line and the game's
// buttons are all on the first screen, without scrolling: in a Hop Chess
// turn that asks for the trampoline square, and in a Jumping King game with
// a friend (clocks, the men to place and four buttons). The typed-move box
// may lie below them.
async function firstScreen(page, viewport, what) {
  assert.equal(await page.evaluate(() => window.scrollY), 0, `${what}: the page scrolled`);
  const b = await boardRect(page);
  assert.ok(b.top >= 0 && b.bottom <= viewport.height && b.right <= viewport.width, `${what}: the board (${b.top}-${b.bottom}px) is on the screen`);
  const outside = await page.evaluate(() => {
    const shown = [document.getElementById("status"), ...document.querySelectorAll(".controls button")].filter(
      (e) => e.offsetParent && !e.closest("#move-entry"),
    );
    return shown
      .map((e) => [e.id, e.getBoundingClientRect()])
      .filter(([, r]) => r.top < 0 || r.left < 0 || r.bottom > window.innerHeight || r.right > window.innerWidth)
      .map(([id, r]) => `${id}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  });
  assert.deepEqual(outside, [], `${what} at ${viewport.width}x${viewport.height}`);
  await noSideScroll(page);
}

test("phones: the board, the status line and the game's buttons are on the first screen", async () => {
  // A server of its own: this test creates six games.
  const server = await startServer();
  try {
    for (const viewport of [PHONE, { width: 360, height: 640 }, { width: 390, height: 844 }]) {
      await withPage(viewport, async (page) => {
        await newLocalGame(page, server.url, "hopchess");
        await page.evaluate(() => window.scrollTo(0, 0));
        await playByApi(page, ["e2e4"]);
        await square(page, "e7").click();
        await square(page, "e5").click();
        await page.waitForFunction(() => /choose the trampoline square/.test(document.getElementById("status").textContent));
        await firstScreen(page, viewport, "Hop Chess, the trampoline square asked");
        await page.screenshot({ path: join(SCREENSHOTS, `phone-prompt-hopchess-${viewport.width}x${viewport.height}.png`) });
        await page.goto(server.url);
        await page.waitForSelector("#create-friend");
        await page.selectOption("#variant", "jumpingking");
        await page.click("#create-friend");
        await page.waitForFunction(() => /^Waiting for your friend/.test(document.getElementById("status").textContent));
        await page.waitForSelector("#resign:not([hidden]), #abort:not([hidden])");
        await page.evaluate(() => window.scrollTo(0, 0));
        await firstScreen(page, viewport, "Jumping King with a friend");
        await page.screenshot({ path: join(SCREENSHOTS, `phone-prompt-jumpingking-${viewport.width}x${viewport.height}.png`) });
      });
    }
  } finally {
    await server.stop();
  }
});

// Issue 46, item 7: the move list's current move is kept in view by
// scrolling the list itself; the page never scrolls with it, so the
// opponent's half of the board stays on a phone's screen.
test("a 375x667 phone: the page does not scroll when a move and the engine's reply are listed", async () => {
  await withPage(PHONE, async (page) => {
    await page.goto(env.server.url);
    await page.waitForSelector("#create-engine");
    await page.selectOption("#variant", "chess");
    await page.selectOption("#engine-color", "white");
    await page.selectOption("#engine-level", "1");
    await page.click("#create-engine");
    await page.waitForFunction(() => document.getElementById("status").textContent === "White to move");
    // The page was scrolled down to the engine's card: the player goes
    // back up to the board.
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await page.evaluate(() => window.scrollY);
    const before = await boardRect(page);
    assert.ok(before.top >= 0 && before.bottom <= PHONE.height, `the board (${before.top}-${before.bottom}px) is on the screen`);
    await square(page, "e2").click();
    await square(page, "e4").click();
    await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 2, null, { timeout: 30000 });
    await page.waitForFunction(() => /^White to move/.test(document.getElementById("status").textContent));
    assert.equal(await page.evaluate(() => window.scrollY), top, "the page scrolled");
    const after = await boardRect(page);
    assert.equal(after.top, before.top, "the board moved on the screen");
    assert.ok(after.bottom <= PHONE.height, `the board ends at ${after.bottom}px, below the screen`);
  });
});

// The list still shows its current move: with more moves than it has room
// for, the last one is scrolled into the list's view, and the page stays.
test("a 375x667 phone: the move list scrolls inside itself to its current move", async () => {
  // A server of its own: this file's games would pass the server's 20
  // creations a minute from one address.
  const server = await startServer();
  try {
    await withPage(PHONE, (page) => longList(page, server.url));
  } finally {
    await server.stop();
  }
});

// 32 moves in a game at one screen at `url`: the list scrolls, the page not.
async function longList(page, url) {
  await newLocalGame(page, url, "chess");
  await page.evaluate(() => window.scrollTo(0, 0));
  // Every pawn one step, then one more: 32 moves, 16 rows of the list.
  const moves = [];
  for (const f of "abcdefgh") moves.push(`${f}2${f}3`, `${f}7${f}6`);
  for (const f of "abcdefgh") moves.push(`${f}3${f}4`, `${f}6${f}5`);
  await playByApi(page, moves);
  assert.equal(await page.evaluate(() => window.scrollY), 0, "the page scrolled");
  const [list, current, scrolled] = await page.evaluate(() => {
    const l = document.getElementById("moves");
    const c = l.querySelector(".current");
    return [l.getBoundingClientRect().toJSON(), c.getBoundingClientRect().toJSON(), l.scrollTop];
  });
  assert.ok(scrolled > 0, "the move list did not scroll");
  assert.ok(current.top >= list.top - 0.5 && current.bottom <= list.bottom + 0.5, "the current move is outside the list's view");
}
