// @ts-check
// The games list: ongoing and finished games, each to watch or replay.

import { api } from "./api.js";
import { clockLabel } from "./clocks.js";
import { $, $$, app } from "./state.js";

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

let gamesSeq = 0;

export async function loadGames(list) {
  const seq = ++gamesSeq;
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
    cell(game.title || titles.get(game.variant) || game.variant, "variant");
    cell(playerName(game.white), "white");
    cell(playerName(game.black), "black");
    cell(clockLabel(game.clock), "tc");
    let result = "";
    if (game.result) result = game.result + (game.reason ? ` (${game.reason})` : "");
    else if (game.status === "waiting") result = "waiting for a player";
    else result = "playing";
    cell(result, "result");
    cell(String(game.moves ?? ""), "count");
    cell(formatDate(game.created_at), "date");
    const links = cell("", "links");
    const a = document.createElement("a");
    a.href = `/g/${game.id}`;
    a.dataset.nav = "";
    a.textContent = game.status === "ended" || game.result ? "Replay" : "Watch";
    const pgn = document.createElement("a");
    pgn.href = api.pgnDownload(game.id);
    pgn.textContent = "PGN";
    pgn.setAttribute("download", "");
    links.append(a, " ", pgn);
    return tr;
  });
  document.querySelector("#games-table tbody").replaceChildren(...rows);
  $("games-table").hidden = rows.length === 0;
  $("games-empty").hidden = rows.length !== 0;
}
