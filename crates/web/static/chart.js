// @ts-check
// The rating history chart of the player page, drawn by uPlot (vendored
// under vendor/, see CONTRIBUTING.md): one line per game with rated
// games, the rating after each game against the time it ended.

import uPlot from "./vendor/uPlot.esm.js";

// A line's colour per game, in the order of GET /api/info's games.
const COLOURS = ["#2f6fb5", "#c0562f", "#3c8c40", "#8a4fb0", "#b08a1f"];

/** @type {uPlot | null} */
let chart = null;

function width(el) {
  return Math.max(260, Math.floor(el.clientWidth || 600));
}

/**
 * Draws `history` (GET /api/user/{name}/rating-history) into `el`; the
 * element's `data-points` says how many points the chart shows.
 * Returns that number (0: nothing drawn).
 * @param {HTMLElement} el
 * @param {{name: string, perf: string, points: number[][], at: number[]}[]} history
 * @returns {number}
 */
export function drawHistory(el, history) {
  destroyChart();
  el.replaceChildren();
  const games = history
    .map((h, i) => ({ ...h, colour: COLOURS[i % COLOURS.length] }))
    .filter((h) => h.points.length > 0);
  const total = games.reduce((n, h) => n + h.points.length, 0);
  el.dataset.points = String(total);
  if (total === 0) return 0;
  /** @type {uPlot.AlignedData[]} */
  const tables = games.map((h) => [h.at.map((t) => t / 1000), h.points.map((p) => p[3])]);
  const data = tables.length === 1 ? tables[0] : uPlot.join(tables);
  /** @type {uPlot.Series[]} */
  const series = [{}];
  for (const h of games) {
    series.push({
      label: h.name,
      stroke: h.colour,
      width: 2,
      spanGaps: true,
      points: { show: true, size: 6, fill: h.colour },
    });
  }
  /** @type {uPlot.Options} */
  const opts = {
    width: width(el),
    height: 240,
    series,
    scales: { x: { time: true } },
    axes: [{}, { label: "Rating", size: 60 }],
    legend: { show: true },
  };
  chart = new uPlot(opts, data, el);
  return total;
}

/** Follows the element's width (a phone turned, a window resized). */
export function resizeChart() {
  if (!chart) return;
  const el = chart.root.parentElement;
  if (el) chart.setSize({ width: width(el), height: 240 });
}

export function destroyChart() {
  if (chart) chart.destroy();
  chart = null;
}
