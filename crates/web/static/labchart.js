// @ts-check
// The Lab page's charts, drawn by uPlot (vendored under vendor/, see
// CONTRIBUTING.md) with its bars path: "bars" (categories on x, one bar
// per series in each, side by side, each interval an error bar drawn by a
// draw hook) and "histogram" (the bins side by side, their edges on x,
// several series side by side in each bin). Each chart's element records
// what its last drawing drew (`data-bars`, `data-error-bars`), which the
// tests read.

import uPlot from "./vendor/uPlot.esm.js";

// A series' colour, in the order of its chart's series.
export const COLOURS = ["#2f6fb5", "#c0562f", "#3c8c40", "#8a4fb0", "#b08a1f", "#4f8a8b"];

/** @type {{chart: uPlot, el: HTMLElement}[]} */
let charts = [];

/** @param {HTMLElement} el */
function width(el) {
  return Math.max(260, Math.floor(el.clientWidth || 600));
}

/** @param {HTMLElement} el */
function height(el) {
  return width(el) < 500 ? 220 : 260;
}

/**
 * The bars path of one series of a chart of `slots` series: each bar
 * takes its share of a category's width (the category is 1 on x), and
 * the bars it draws are counted in `counts[slot]`.
 * @param {number[]} counts
 * @param {number} slot
 * @param {number} slots
 * @param {number} room the share of a category the bars take
 * @returns {uPlot.Series.PathBuilder}
 */
function barsPath(counts, slot, slots, room) {
  const size = room / slots;
  const bars = /** @type {NonNullable<typeof uPlot.paths.bars>} */ (uPlot.paths.bars);
  const path = bars({
    disp: {
      x0: {
        unit: 1,
        values: (u) => Array.from(u.data[0], (x) => x - room / 2 + slot * size),
      },
      size: { unit: 1, values: (u) => Array.from(u.data[0], () => size) },
    },
    each: () => {
      counts[slot]++;
    },
  });
  return (u, seriesIdx, idx0, idx1) => {
    counts[slot] = 0;
    return path(u, seriesIdx, idx0, idx1);
  };
}

/**
 * Draws the error bars of `intervals` ([series][category] = [lo, hi] or
 * null) over the bars, each at its bar's centre.
 * @param {HTMLElement} el
 * @param {([number, number] | null)[][]} intervals
 * @param {number} room
 * @returns {(u: uPlot) => void}
 */
function errorBars(el, intervals, room) {
  return (u) => {
    const ctx = u.ctx;
    const slots = intervals.length;
    const size = room / slots;
    const px = devicePixelRatio || 1;
    let drawn = 0;
    ctx.save();
    ctx.strokeStyle = "#222";
    ctx.lineWidth = 1.5 * px;
    intervals.forEach((row, s) => {
      row.forEach((iv, c) => {
        if (!iv) return;
        const x = u.valToPos(c - room / 2 + (s + 0.5) * size, "x", true);
        const barPx = Math.abs(u.valToPos(size, "x", true) - u.valToPos(0, "x", true));
        const cap = Math.min(barPx * 0.3, 8 * px);
        const lo = u.valToPos(iv[0], "y", true);
        const hi = u.valToPos(iv[1], "y", true);
        ctx.beginPath();
        ctx.moveTo(x, lo);
        ctx.lineTo(x, hi);
        ctx.moveTo(x - cap, lo);
        ctx.lineTo(x + cap, lo);
        ctx.moveTo(x - cap, hi);
        ctx.lineTo(x + cap, hi);
        ctx.stroke();
        drawn++;
      });
    });
    ctx.restore();
    el.dataset.errorBars = String(drawn);
  };
}

/**
 * The y range that holds every value and interval, from 0 unless a value
 * is below it, with a little room above.
 * @param {number[]} values
 * @returns {[number, number]}
 */
function yRange(values) {
  const lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (hi === lo) hi = lo + 1;
  return [lo, hi + (hi - lo) * 0.08];
}

/** @param {uPlot} u the plotting area's width in CSS pixels */
function plotWidth(u) {
  return Math.max(u.bbox.width / (devicePixelRatio || 1), 1);
}

/**
 * The x axis of `labels`, the first at x = `first`, one a unit apart.
 * A bar chart names every category, its labels turned when they do not
 * fit side by side (a phone); a histogram's edges are thinned to one per
 * `gap` pixels instead.
 * @param {string[]} labels
 * @param {number} first
 * @param {boolean} every
 * @param {string | undefined} label the axis's own label
 * @returns {uPlot.Axis}
 */
function categoryAxis(labels, first, every, label) {
  const longest = Math.max(...labels.map((l) => l.length));
  const gap = every ? Math.max(48, longest * 7 + 12) : 40;
  const crowded = (/** @type {uPlot} */ u) => labels.length * gap > plotWidth(u);
  const turned = (/** @type {uPlot} */ u) => every && crowded(u);
  return {
    label,
    splits: (u) => {
      const step = every ? 1 : Math.max(1, Math.ceil((labels.length * gap) / plotWidth(u)));
      return labels.map((_, i) => first + i).filter((_, i) => i % step === 0);
    },
    values: (_u, splits) => splits.map((v) => labels[Math.round(v - first)] ?? ""),
    rotate: (u) => (turned(u) ? 40 : 0),
    size: (u) => (turned(u) ? Math.min(110, Math.round(longest * 7 * 0.64) + 24) : 36),
    gap: 4,
  };
}

/** Short numbers for a histogram's edges (1500 -> 1500, 0.25 -> 0.25). */
function edge(n) {
  return Number.isInteger(n) ? String(n) : String(Number(n.toPrecision(3)));
}

/**
 * uPlot's options and data for `chart` (a "bars" or "histogram" of the
 * lab's JSON) drawn into `el`.
 * @param {HTMLElement} el
 * @param {any} chart
 * @returns {{opts: uPlot.Options, data: uPlot.AlignedData}}
 */
function build(el, chart) {
  const bars = chart.kind === "bars";
  const n = bars ? chart.categories.length : chart.bins.length - 1;
  const room = bars ? 0.8 : 1;
  /** @type {uPlot.Series[]} */
  const series = [
    {
      label: chart.x_label || (bars ? "" : "bin"),
      value: (_u, v) =>
        v == null ? "" : bars ? chart.categories[v] : `${edge(chart.bins[v])}-${edge(chart.bins[v + 1])}`,
    },
  ];
  /** @type {(number | null)[][]} */
  const columns = [];
  /** @type {number[]} the bars each series drew last */
  const counts = chart.series.map(() => 0);
  /** @type {([number, number] | null)[][]} */
  const intervals = [];
  const all = [];
  chart.series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length];
    const values = bars ? s.values.map((v) => v.value) : s.values;
    columns.push(values);
    all.push(...values);
    if (bars) {
      const row = s.values.map((v) => (v.lo == null || v.hi == null ? null : /** @type {[number, number]} */ ([v.lo, v.hi])));
      intervals.push(row);
      for (const iv of row) if (iv) all.push(iv[0], iv[1]);
    }
    series.push({
      label: s.name,
      fill: colour,
      stroke: colour,
      width: 0,
      paths: barsPath(counts, i, chart.series.length, bars ? room : 0.9),
      points: { show: false },
    });
  });
  const labels = bars ? chart.categories : chart.bins.map(edge);
  /** @type {uPlot.Options} */
  const opts = {
    width: width(el),
    height: height(el),
    series,
    scales: {
      // Bars: category c spans c-0.5 to c+0.5. A histogram's bin b spans
      // b-0.5 to b+0.5 too, so its edges are at the halves.
      x: { time: false, range: () => [-0.5, n - 0.5] },
      y: { range: () => yRange(all) },
    },
    axes: [
      categoryAxis(labels, bars ? 0 : -0.5, bars, chart.x_label || undefined),
      { label: chart.y_label, size: 56 },
    ],
    // The series' names and colours (no values under a pointer: a phone
    // has none).
    legend: { show: true, live: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    hooks: {
      draw: [
        ...(bars ? [errorBars(el, intervals, room)] : []),
        () => {
          el.dataset.bars = String(counts.reduce((a, b) => a + b, 0));
        },
      ],
    },
  };
  const xs = Array.from({ length: n }, (_, i) => i);
  return { opts, data: /** @type {uPlot.AlignedData} */ ([xs, ...columns]) };
}

/**
 * Draws `chart` (one of a lab result's `charts`) into `el`.
 * @param {HTMLElement} el
 * @param {any} chart
 */
export function drawChart(el, chart) {
  el.replaceChildren();
  el.dataset.bars = "0";
  el.dataset.errorBars = "0";
  const { opts, data } = build(el, chart);
  charts.push({ chart: new uPlot(opts, data, el), el });
}

/** Follows the charts' widths (a phone turned, a window resized). */
export function resizeLabCharts() {
  for (const { chart, el } of charts) chart.setSize({ width: width(el), height: height(el) });
}

export function destroyLabCharts() {
  for (const { chart } of charts) chart.destroy();
  charts = [];
}
