// @ts-check
// The player page (/@/{name}): the name and when the account was made,
// per game the rating (`1500?` while provisional) with the games played,
// won, drawn and lost, the rating history chart (chart.js), and the
// player's games, filtered by game and by ongoing or finished, a page at
// a time. An unknown name shows "No such player". Every name is set as
// text, never as HTML.

import { api } from "./api.js";
import { drawHistory, destroyChart } from "./chart.js";
import { clockLabel } from "./clocks.js";
import { scoreText } from "./result.js";
import { $, app } from "./state.js";

const PER_PAGE = 20;

/** The page's player and games filter. */
const shown = { name: "", game: "", status: "all", page: 1, seq: 0 };

/**
 * A link to a player's page (or plain text for a seat of no account).
 * @param {{name: string, user: string | null}} seat
 * @returns {Node}
 */
export function playerLink(seat) {
  if (!seat.user) return document.createTextNode(seat.name === "waiting" ? "(free seat)" : seat.name);
  const a = document.createElement("a");
  a.href = `/@/${encodeURIComponent(seat.name)}`;
  a.dataset.nav = "";
  a.className = "player-link";
  a.textContent = seat.name;
  return a;
}

/** @param {number} t */
function day(t) {
  const d = new Date(t);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function titles() {
  return new Map((app.info ? app.info.variants : []).map((v) => [v.name, v.title]));
}

/** @param {boolean} missing */
function showMissing(missing) {
  $("player-missing").hidden = !missing;
  $("player-found").hidden = missing;
}

/**
 * Opens the page of player `name` (as the path gives it).
 * @param {string} name
 */
export async function loadPlayer(name) {
  const seq = ++shown.seq;
  const screen = $("player-screen");
  delete screen.dataset.loaded;
  destroyChart();
  shown.name = name;
  shown.game = "";
  shown.status = "all";
  shown.page = 1;
  $("player-error").textContent = "";
  $("player-game", HTMLSelectElement).value = "";
  $("player-status", HTMLSelectElement).value = "all";
  let user, counts, history;
  try {
    [user, counts, history] = await Promise.all([api.user(name), api.counts(name), api.ratingHistory(name)]);
  } catch (err) {
    if (seq !== shown.seq) return;
    if (err.status === 404) {
      $("player-missing-name").textContent = name;
      showMissing(true);
      document.title = "No such player - Springboard";
      screen.dataset.loaded = "missing";
    } else {
      showMissing(false);
      $("player-error").textContent = err.message;
    }
    return;
  }
  if (seq !== shown.seq || app.screen !== "player") return;
  showMissing(false);
  document.title = `${user.username} - Springboard`;
  $("player-name").textContent = user.username;
  $("player-since").textContent = `Member since ${day(user.createdAt)}`;
  renderPerfs(user, counts);
  const total = drawHistory($("player-chart"), history);
  $("player-chart-empty").hidden = total > 0;
  await loadPlayerGames(seq);
  if (seq === shown.seq) screen.dataset.loaded = "1";
}

function renderPerfs(user, counts) {
  const names = titles();
  const rows = Object.keys(user.perfs).map((game) => {
    const perf = user.perfs[game];
    const c = counts.counts[game] || { played: 0, won: 0, drawn: 0, lost: 0 };
    const tr = document.createElement("tr");
    tr.dataset.game = game;
    const cell = (text, cls) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
    };
    cell(names.get(game) || game, "variant");
    cell(`${perf.rating}${perf.prov ? "?" : ""}`, "rating");
    cell(String(perf.games), "rated");
    cell(String(c.played), "played");
    cell(String(c.won), "won");
    cell(String(c.drawn), "drawn");
    cell(String(c.lost), "lost");
    return tr;
  });
  document.querySelector("#player-perfs tbody").replaceChildren(...rows);
}

/** @param {any} game */
function standing(game) {
  if (game.result) return scoreText(game.result) + (game.reason ? ` (${game.reason})` : "");
  if (game.status === "waiting") return "waiting for a player";
  return "playing";
}

/** @param {number} [seq] */
async function loadPlayerGames(seq) {
  const mine = seq ?? shown.seq;
  let data;
  try {
    data = await api.playerGames(shown.name, shown.game, shown.status, shown.page, PER_PAGE);
  } catch (err) {
    if (mine === shown.seq) $("player-error").textContent = err.message;
    return;
  }
  if (mine !== shown.seq) return;
  const names = titles();
  const rows = data.games.map((game) => {
    const tr = document.createElement("tr");
    tr.dataset.id = game.id;
    const cell = (cls) => {
      const td = document.createElement("td");
      td.className = cls;
      tr.append(td);
      return td;
    };
    const a = document.createElement("a");
    a.href = `/g/${encodeURIComponent(game.id)}`;
    a.dataset.nav = "";
    a.textContent = game.title || names.get(game.variant) || game.variant;
    cell("variant").append(a, game.rated ? " (rated)" : "");
    cell("white").append(playerLink(game.white));
    cell("black").append(playerLink(game.black));
    cell("tc").textContent = clockLabel(game.clock);
    cell("result").textContent = standing(game);
    cell("count").textContent = String(Math.ceil(game.plies / 2));
    cell("date").textContent = day(game.updated_at);
    return tr;
  });
  document.querySelector("#player-games tbody").replaceChildren(...rows);
  $("player-games").hidden = rows.length === 0;
  $("player-games-empty").hidden = rows.length !== 0;
  $("player-prev", HTMLButtonElement).disabled = shown.page <= 1;
  $("player-next", HTMLButtonElement).disabled = !data.more;
  $("player-page").textContent = shown.page > 1 || data.more ? `Page ${shown.page}` : "";
}

export function wirePlayer() {
  const game = $("player-game", HTMLSelectElement);
  const status = $("player-status", HTMLSelectElement);
  const refilter = () => {
    shown.game = game.value;
    shown.status = status.value;
    shown.page = 1;
    loadPlayerGames();
  };
  game.addEventListener("change", refilter);
  status.addEventListener("change", refilter);
  $("player-prev").addEventListener("click", () => {
    shown.page = Math.max(1, shown.page - 1);
    loadPlayerGames();
  });
  $("player-next").addEventListener("click", () => {
    shown.page += 1;
    loadPlayerGames();
  });
}

/** Fills the games filter with the server's games (GET /api/info). */
export function fillPlayerGames() {
  const select = $("player-game", HTMLSelectElement);
  const options = [new Option("All games", "")];
  for (const v of app.info ? app.info.variants : []) options.push(new Option(v.title, v.name));
  select.replaceChildren(...options);
}
