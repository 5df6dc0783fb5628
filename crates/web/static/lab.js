// @ts-check
// The Lab page (/lab): the measured answers to the games' own questions
// (GET /api/lab, then each question's result), each with the rule page's
// words it answers, its answer, its figures with their 95% intervals,
// every chart of its result (labchart.js), its method and notes, and the
// command, commit and date that made it. `?game=NAME` shows the questions
// that measure that game (each game's rules link here so); `#QUESTION`
// scrolls to a question. Every text of a result is set as text, never as
// HTML.

import { api } from "./api.js";
import { drawChart, destroyLabCharts, resizeLabCharts } from "./labchart.js";
import { $, app } from "./state.js";

/** What the page shows: its filter, and a counter against late answers. */
const shown = { seq: 0, search: /** @type {string | null} */ (null) };

/** @returns {Map<string, string>} each game's title by its name */
function titles() {
  return new Map((app.info ? app.info.variants : []).map((v) => [v.name, v.title]));
}

/** @param {string} name */
function title(name) {
  return titles().get(name) || name;
}

/**
 * An element with its class and text.
 * @param {string} tag
 * @param {string} [className]
 * @param {string} [text]
 */
function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A number as the page shows it: at most three significant digits, and
 * 0 for what is 0 but for floating-point rounding (an interval's end at
 * 2e-17). */
function num(n) {
  if (Number.isInteger(n)) return String(n);
  if (Math.abs(n) < 1e-9) return "0";
  return String(Number(n.toPrecision(3)));
}

/** Scrolls to the question the address's `#` names, if it is shown. */
function scrollToQuestion() {
  const q = decodeURIComponent(location.hash.slice(1));
  if (!q) return;
  const section = document.getElementById(`lab-${q}`);
  if (section) section.scrollIntoView({ block: "start" });
}

/**
 * The figures of a result as a table.
 * @param {any[]} figures
 */
function figuresTable(figures) {
  const wrap = el("div", "table-wrap");
  const table = el("table", "lab-figures");
  const head = el("tr");
  for (const h of ["Figure", "Value", "95% interval", "n"]) head.append(el("th", undefined, h));
  const thead = el("thead");
  const tbody = el("tbody");
  thead.append(head);
  table.append(thead, tbody);
  for (const f of figures) {
    const tr = el("tr");
    const interval = f.lo == null || f.hi == null ? "-" : `${num(f.lo)} to ${num(f.hi)}`;
    tr.append(
      el("td", "label", f.label),
      el("td", "value", `${num(f.value)} ${f.unit}`),
      el("td", "interval", interval),
      el("td", "n", String(f.n)),
    );
    tbody.append(tr);
  }
  wrap.append(table);
  return wrap;
}

/**
 * A question's section; its charts' elements, to draw once it is shown.
 * @param {any} r a lab result (GET /api/lab/{question})
 * @param {{el: HTMLElement, chart: any}[]} plots
 */
function questionSection(r, plots) {
  const section = el("section", "lab-question");
  section.id = `lab-${r.question}`;
  section.dataset.question = r.question;
  section.append(el("h3", undefined, r.title));
  section.append(el("p", "lab-games hint", `Games: ${r.games.map(title).join(", ")}`));
  if (r.quote) {
    const quote = el("blockquote", "lab-quote");
    quote.append(el("p", undefined, r.quote));
    quote.append(el("cite", undefined, `The rules of ${title(r.games[0])}`));
    section.append(quote);
  }
  const answer = el("p", "lab-answer");
  answer.append(el("strong", undefined, "Answer: "), r.answer);
  section.append(answer);
  if (r.figures.length > 0) section.append(figuresTable(r.figures));
  const grid = el("div", "lab-charts");
  for (const chart of r.charts) {
    const figure = el("figure", "lab-chart");
    figure.dataset.chartId = chart.id;
    figure.id = `chart-${chart.id}`;
    figure.append(el("figcaption", undefined, chart.title));
    const plot = el("div", "lab-plot");
    figure.append(plot);
    if (chart.kind === "bars" && chart.series.some((s) => s.values.some((v) => v.lo != null))) {
      figure.append(el("p", "hint", "The black bars are 95% intervals."));
    }
    grid.append(figure);
    plots.push({ el: plot, chart });
  }
  section.append(grid);
  section.append(el("h4", undefined, "Method"));
  section.append(el("p", "lab-method", r.method));
  if (r.notes.length > 0) {
    const notes = el("ul", "lab-notes");
    for (const n of r.notes) notes.append(el("li", undefined, n));
    section.append(notes);
  }
  const meta = el("p", "lab-meta hint");
  meta.append(
    "Made by ",
    el("code", undefined, r.command),
    ` at commit `,
    el("code", undefined, r.commit),
    ` on ${r.date}, from ${r.games_played} games.`,
  );
  section.append(meta);
  return section;
}

/** The game filter's choices: every game, then each one. */
function fillFilter(game) {
  const select = $("lab-game", HTMLSelectElement);
  if (select.options.length === 0) {
    select.append(new Option("All games", ""));
    for (const [name, t] of titles()) select.append(new Option(t, name));
  }
  select.value = game;
}

/**
 * Opens the Lab page at the address's filter and question. Its results
 * are read again only when the filter changed since they were drawn.
 */
export async function showLab() {
  const screen = $("lab-screen");
  if (shown.search === location.search && screen.dataset.loaded) {
    resizeLabCharts();
    scrollToQuestion();
    return;
  }
  const seq = ++shown.seq;
  shown.search = location.search;
  delete screen.dataset.loaded;
  destroyLabCharts();
  const game = new URLSearchParams(location.search).get("game") || "";
  fillFilter(game);
  $("lab-error").textContent = "";
  $("lab-problems").replaceChildren();
  $("lab-questions").replaceChildren();
  $("lab-contents").replaceChildren();
  $("lab-empty").hidden = true;
  let list, results;
  try {
    list = await api.lab();
    const wanted = list.questions.filter((q) => !game || q.games.includes(game));
    results = await Promise.all(wanted.map((q) => api.labQuestion(q.question)));
  } catch (err) {
    if (seq !== shown.seq) return;
    $("lab-error").textContent = `The lab's results cannot be read: ${err.message}`;
    screen.dataset.loaded = "error";
    shown.search = null;
    return;
  }
  if (seq !== shown.seq) return;
  for (const p of list.errors) $("lab-problems").append(el("li", undefined, `${p.file}: ${p.error}`));
  $("lab-problems-box").hidden = list.errors.length === 0;
  $("lab-empty").textContent = game
    ? `No question of the lab measures ${title(game)} yet.`
    : "The lab has no results yet: `springboard lab all` writes them.";
  $("lab-empty").hidden = results.length > 0;
  /** @type {{el: HTMLElement, chart: any}[]} */
  const plots = [];
  for (const r of results) {
    const li = el("li");
    const a = el("a", undefined, r.title);
    a.setAttribute("href", `#${r.question}`);
    li.append(a);
    $("lab-contents").append(li);
    $("lab-questions").append(questionSection(r, plots));
  }
  for (const p of plots) drawChart(p.el, p.chart);
  screen.dataset.loaded = "yes";
  scrollToQuestion();
}

/** The game filter: its address, so that it can be linked and kept. */
export function wireLab() {
  $("lab-game").addEventListener("change", () => {
    const game = $("lab-game", HTMLSelectElement).value;
    const path = game ? `/lab?game=${encodeURIComponent(game)}` : "/lab";
    history.pushState(null, "", path);
    showLab();
  });
}
