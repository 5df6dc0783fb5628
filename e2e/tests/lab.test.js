// The Lab page (issue 43, item 3): the server reads the lab's results from
// a directory (`serve --lab DIR`): SPRINGBOARD_E2E_LAB when set (CI sets
// it to the output of `springboard lab all --tiny`, scripts/e2e.sh), else
// the fixtures of crates/web/tests/fixtures/lab. At phone (375x667) and
// desktop (1280x800) sizes the page draws every chart of every file: a
// canvas per chart id, with a bar per value and an error bar per interval
// drawn, the first series' colour on it, the page no wider than the
// screen and no error in the console. A game's rules link to its
// questions, and `#question` scrolls to one. Screenshots into
// SPRINGBOARD_SHOTS when set, else e2e/screenshots.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { SCREENSHOTS, startServer, startBrowser } from "./harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const LAB = process.env.SPRINGBOARD_E2E_LAB || join(here, "..", "..", "crates", "web", "tests", "fixtures", "lab");
const SHOTS = process.env.SPRINGBOARD_SHOTS || SCREENSHOTS;
const SIZES = [
  ["phone", { width: 375, height: 667 }],
  ["desktop", { width: 1280, height: 800 }],
];
// labchart.js's first colour (#2f6fb5): every chart's first series.
const FIRST_COLOUR = [0x2f, 0x6f, 0xb5];

/** Every result of the directory, as the lab wrote it. */
const results = readdirSync(LAB)
  .filter((f) => f.endsWith(".json"))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(LAB, f), "utf8")));

/** What each chart must show: its bars and its error bars. */
function expected(chart) {
  if (chart.kind === "bars") {
    const values = chart.series.flatMap((s) => s.values);
    return { bars: values.length, errorBars: values.filter((v) => v.lo != null && v.hi != null).length };
  }
  return { bars: chart.series.reduce((n, s) => n + s.values.length, 0), errorBars: 0 };
}

let server = null;
before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startServer({ args: ["--lab", LAB] });
});
after(async () => {
  if (server) await server.stop();
});

/**
 * A new tab with its errors: uncaught ones, the console's, and every
 * failed answer but the 401 of `/api/account` (nobody is signed in), whose
 * console line is the browser's own.
 */
async function open(browser) {
  const page = await browser.context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  page.on("response", (r) => {
    if (r.status() >= 400 && !(r.status() === 401 && new URL(r.url()).pathname === "/api/account")) {
      errors.push(`${r.status()} ${r.url()}`);
    }
  });
  return { page, errors };
}

test("the directory holds results with charts", () => {
  assert.ok(results.length > 0, `no results in ${LAB}`);
  assert.ok(results.every((r) => r.charts.length > 0), "a result without a chart");
});

for (const [name, viewport] of SIZES) {
  test(`${name}: the Lab page draws every chart of every result`, async () => {
    const browser = await startBrowser(viewport);
    try {
      const { page, errors } = await open(browser);
      await page.goto(`${server.url}lab`);
      await page.waitForSelector('#lab-screen[data-loaded="yes"]');
      assert.equal(await page.title(), "Lab - Springboard");
      const shown = await page.locator(".lab-question").evaluateAll((s) => s.map((e) => e.dataset.question));
      assert.deepEqual([...shown].sort(), results.map((r) => r.question).sort());
      assert.equal(await page.locator("#lab-problems-box").isHidden(), true);
      for (const r of results) {
        const section = page.locator(`#lab-${r.question}`);
        assert.equal(await section.locator("h3").textContent(), r.title);
        assert.match(await section.locator(".lab-answer").textContent(), new RegExp(r.answer.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
        assert.equal(await section.locator(".lab-figures tbody tr").count(), r.figures.length, r.question);
        assert.match(await section.locator(".lab-meta").textContent(), new RegExp(`at commit ${r.commit}`));
        for (const chart of r.charts) {
          const figure = page.locator(`[data-chart-id="${chart.id}"]`);
          assert.equal(await figure.count(), 1, chart.id);
          assert.equal(await figure.locator("figcaption").textContent(), chart.title);
          const canvas = figure.locator("canvas");
          assert.equal(await canvas.count(), 1, chart.id);
          const want = expected(chart);
          const plot = figure.locator(".lab-plot");
          await plot.evaluate((el, n) => new Promise((done) => {
            const check = () => (Number(el.dataset.bars) === n ? done(undefined) : requestAnimationFrame(check));
            check();
          }), want.bars).catch(() => {});
          const drawn = await plot.evaluate((el) => ({ bars: Number(el.dataset.bars), errorBars: Number(el.dataset.errorBars) }));
          assert.deepEqual(drawn, want, chart.id);
          // Not blank: the canvas is as wide as its box, holds the first
          // series' colour, and fits the screen.
          const seen = await canvas.evaluate((c, rgb) => {
            const ctx = c.getContext("2d");
            const { data } = ctx.getImageData(0, 0, c.width, c.height);
            let hits = 0;
            for (let i = 0; i < data.length; i += 4) {
              if (data[i] === rgb[0] && data[i + 1] === rgb[1] && data[i + 2] === rgb[2] && data[i + 3] === 255) hits++;
            }
            const box = c.getBoundingClientRect();
            return { width: box.width, right: box.right, hits };
          }, FIRST_COLOUR);
          assert.ok(seen.width >= 250, `${chart.id}: the chart is ${seen.width}px wide`);
          assert.ok(seen.right <= viewport.width, `${chart.id}: the chart ends at ${seen.right}px`);
          assert.ok(seen.hits > 20, `${chart.id}: ${seen.hits} pixels of the first series' colour`);
        }
      }
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= viewport.width, `the page is ${width}px wide`);
      await page.screenshot({ path: join(SHOTS, `lab-${name}.png`), fullPage: true });
      await page.screenshot({ path: join(SHOTS, `lab-${name}-top.png`) });
      const first = results.find((r) => r.charts.some((c) => c.kind === "bars")) || results[0];
      await page.locator(`#lab-${first.question} .lab-charts`).screenshot({ path: join(SHOTS, `lab-${name}-charts.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      await browser.close();
    }
  });
}

test("a game's rules link to its questions, and #question scrolls to one", async () => {
  const browser = await startBrowser({ width: 1280, height: 800 });
  try {
    const { page, errors } = await open(browser);
    const game = results[results.length - 1].games[0];
    await page.goto(server.url);
    await page.waitForSelector("#intro a[data-rules]");
    await page.click(`#intro a[data-rules="${game}"]`);
    await page.waitForSelector("#rules[open]");
    await page.click("#rules .rules-lab a");
    await page.waitForSelector('#lab-screen[data-loaded="yes"]');
    assert.equal(await page.locator("#rules").evaluate((d) => d.open), false);
    assert.equal(new URL(page.url()).search, `?game=${game}`);
    assert.equal(await page.locator("#lab-game").inputValue(), game);
    const shown = await page.locator(".lab-question").evaluateAll((s) => s.map((e) => e.dataset.question));
    assert.deepEqual([...shown].sort(), results.filter((r) => r.games.includes(game)).map((r) => r.question).sort());
    // Back to every game with the filter, then a question's contents link.
    await page.selectOption("#lab-game", "");
    await page.waitForFunction((n) => document.querySelectorAll(".lab-question").length === n, results.length);
    const last = results[Math.floor((results.length - 1) / 2)].question;
    await page.click(`#lab-contents a[href="#${last}"]`);
    await page.waitForFunction((q) => {
      const top = document.getElementById(`lab-${q}`).getBoundingClientRect().top;
      return top >= -1 && top < 50;
    }, last);
    // Opened at a question's address: scrolled to it.
    await page.goto(server.url);
    await page.waitForSelector("#intro a[data-rules]");
    await page.goto(`${server.url}lab#${last}`);
    await page.waitForSelector('#lab-screen[data-loaded="yes"]');
    const top = await page.locator(`#lab-${last}`).evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 50, `the question is at ${top}px`);
    // The header links to the Lab on a desktop.
    assert.equal(await page.locator("#nav-lab").getAttribute("href"), "/lab");
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
  }
});
