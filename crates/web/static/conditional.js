// @ts-check
// The conditional moves panel of a correspondence game's page
// (/api/games/{id}/conditional): a player not to move types a line, their
// opponent's expected reply then the answer, and so on, in SAN or long
// notation; each move is read by the server's rules core (POST .../read)
// at the position after the moves before it, and the line, in long
// notation, is added to the player's lines. The server plays the answer
// at once when the reply comes.

import { api } from "./api.js";
import { $, app } from "./state.js";

/** The game and version whose lines are shown. */
let shownFor = "";
/** @type {string[][]} */
let lines = [];
let editable = false;

function showError(text) {
  $("conditional-error").textContent = text;
}

function renderLines() {
  const ol = $("conditional-lines");
  ol.textContent = "";
  lines.forEach((line, i) => {
    const li = document.createElement("li");
    li.textContent = line.join(" ");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Remove";
    b.className = "small";
    b.hidden = !editable;
    b.addEventListener("click", () => save(lines.filter((_, j) => j !== i)));
    li.append(" ", b);
    ol.append(li);
  });
  $("conditional-form").hidden = !editable;
  if (!lines.length) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = editable ? "No lines yet." : "Lines are entered while your opponent is to move.";
    ol.append(li);
  }
}

async function save(next) {
  showError("");
  try {
    const r = await api.setConditional(app.gameId, next);
    lines = r.lines;
    editable = r.editable;
    renderLines();
    return true;
  } catch (err) {
    showError(err instanceof Error ? err.message : String(err));
    return false;
  }
}

async function add(ev) {
  ev.preventDefault();
  const input = $("conditional-text", HTMLInputElement);
  const words = input.value.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return;
  showError("");
  /** @type {string[]} */
  const line = [];
  try {
    for (const w of words) {
      const r = await api.read(app.gameId, w, undefined, line);
      line.push(r.uci);
    }
  } catch (err) {
    showError(`Move ${line.length + 1} ('${words[line.length]}'): ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  if (await save([...lines, line])) input.value = "";
}

/** Shows the panel for the game on screen; reads the lines when the game changed. */
export function renderConditional() {
  const g = app.game;
  const seat = g && (g.you === "white" || g.you === "black" || g.you === "both");
  const show = !!(g && seat && g.clock && g.clock.correspondence && g.status === "playing");
  $("conditional").hidden = !show;
  if (!show) {
    shownFor = "";
    return;
  }
  const key = `${g.id}/${g.version}/${g.turn}`;
  if (key === shownFor) return;
  shownFor = key;
  api
    .conditional(g.id)
    .then((r) => {
      if (shownFor !== key) return;
      lines = r.lines;
      editable = r.editable;
      renderLines();
    })
    .catch((err) => showError(err instanceof Error ? err.message : String(err)));
}

export function wireConditional() {
  $("conditional-form").addEventListener("submit", add);
  $("conditional-clear").addEventListener("click", () => save([]));
}
