// @ts-check
// The games list: the played games being played or over (each to watch
// or replay), mine with my side and whose move it is, and my boards and
// loaded texts, kept apart from the played games.

import { api } from "./api.js";
import { clockLabel } from "./clocks.js";
import { playerLink } from "./player.js";
import { scoreText } from "./result.js";
import { $, $$, app, sideName } from "./state.js";

function formatDate(t) {
  if (t === null || t === undefined) return "";
  let d;
  if (typeof t === "number") d = new Date(t < 1e12 ? t * 1000 : t);
  else d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function playerName(p) {
  const name = p && p.name;
  if (!name || name === "waiting") return "(free seat)";
  return name;
}

// Where the game stands: its score and how it ended, whose move it is
// (mine or the opponent's when I play), or that it waits for my friend.
function standing(game) {
  if (game.result) return scoreText(game.result) + (game.reason ? ` (${game.reason})` : "");
  if (game.status === "waiting") return game.you ? "waiting for your friend" : "waiting for a player";
  if (!game.turn) return "playing";
  if (game.you === game.turn) return "Your move";
  if (game.you && game.you !== "both") return `${sideName(game.turn)} to move (your opponent)`;
  return `${sideName(game.turn)} to move`;
}

// The game's main link: replay a game over, play on in one of mine
// (Play before the first move, then Continue), else watch.
function openLabel(game) {
  if (game.status === "ended" || game.result) return "Replay";
  if (game.you) return game.plies > 0 ? "Continue" : "Play";
  return "Watch";
}

let gamesSeq = 0;

export async function loadGames(list) {
  const seq = ++gamesSeq;
  // Which list the table shows, once it has arrived.
  delete $("games-screen").dataset.loaded;
  for (const b of $$("#games-screen .tabs button")) {
    b.setAttribute("aria-selected", String(b.dataset.list === list));
  }
  $("games-error").textContent = "";
  let data;
  try {
    data = await api.list(list, 50);
  } catch (err) {
    if (seq === gamesSeq) $("games-error").textContent = err.message;
    return;
  }
  if (seq !== gamesSeq || app.screen !== "games") return;
  const titles = new Map((app.info ? app.info.variants : []).map((v) => [v.name, v.title]));
  const rows = data.games.map((game) => {
    const tr = document.createElement("tr");
    tr.dataset.id = game.id;
    const cell = (text, cls) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (cls) td.className = cls;
      tr.append(td);
      return td;
    };
    const link = (text) => {
      const a = document.createElement("a");
      a.href = `/g/${game.id}`;
      a.dataset.nav = "";
      a.textContent = text;
      return a;
    };
    const name = cell("", "variant");
    name.append(link(game.title || titles.get(game.variant) || game.variant));
    for (const side of ["white", "black"]) {
      const td = cell(playerName(game[side]), side);
      // An account's name links to its player page.
      if (game[side] && game[side].user) td.replaceChildren(playerLink(game[side]));
      if (game.you === side || game.you === "both") {
        const me = document.createElement("span");
        me.className = "you";
        me.textContent = " (you)";
        td.append(me);
      }
    }
    cell(clockLabel(game.clock), "tc");
    cell(standing(game), "result");
    cell(String(game.moves ?? ""), "count");
    cell(formatDate(game.created_at), "date");
    const links = cell("", "links");
    const open = link(openLabel(game));
    open.className = "open";
    const pgn = document.createElement("a");
    pgn.href = api.pgnDownload(game.id);
    pgn.textContent = "PGN";
    pgn.setAttribute("download", "");
    links.append(open, " ", pgn);
    return tr;
  });
  document.querySelector("#games-table tbody").replaceChildren(...rows);
  $("games-table").hidden = rows.length === 0;
  $("games-empty").hidden = rows.length !== 0;
  $("games-empty").textContent = EMPTY[list] || EMPTY.ongoing;
  $("games-screen").dataset.loaded = list;
}

const EMPTY = {
  ongoing: "No game is being played now.",
  recent: "No games here yet.",
  mine: "You have no games here yet: start one from the first screen.",
  analysis: "No analysis boards or loaded games yet: open an analysis board, or load a FEN or PGN on a game's page.",
};
