// @ts-check
// The leaderboards page (/player): one table per game of the players whose
// rating is established (not provisional), best first, each name a link
// to the player's page (GET /api/player).

import { api } from "./api.js";
import { $, app } from "./state.js";

let seq = 0;

/**
 * @param {number} n
 */
function signed(n) {
  if (!n) return "";
  return n > 0 ? `+${n}` : `\u2212${-n}`;
}

export async function loadLeaders() {
  const mine = ++seq;
  const box = $("leaders");
  delete box.dataset.loaded;
  $("leaders-error").textContent = "";
  let data;
  try {
    data = await api.leaders();
  } catch (err) {
    if (mine === seq) $("leaders-error").textContent = err.message;
    return;
  }
  if (mine !== seq || app.screen !== "leaders") return;
  const titles = new Map((app.info ? app.info.variants : []).map((v) => [v.name, v.title]));
  const sections = Object.keys(data).map((game) => {
    const section = document.createElement("section");
    section.className = "leaders-game";
    section.dataset.game = game;
    const h = document.createElement("h3");
    h.textContent = titles.get(game) || game;
    section.append(h);
    const users = data[game];
    if (users.length === 0) {
      const p = document.createElement("p");
      p.className = "hint";
      p.textContent = "Nobody has an established rating here yet.";
      section.append(p);
      return section;
    }
    const table = document.createElement("table");
    const head = document.createElement("tr");
    for (const t of ["#", "Player", "Rating", "Progress"]) {
      const th = document.createElement("th");
      th.textContent = t;
      head.append(th);
    }
    table.createTHead().append(head);
    const body = table.createTBody();
    users.forEach((u, i) => {
      const tr = body.insertRow();
      const perf = u.perfs[game];
      tr.insertCell().textContent = String(i + 1);
      const a = document.createElement("a");
      a.href = `/@/${encodeURIComponent(u.username)}`;
      a.dataset.nav = "";
      a.textContent = u.username;
      tr.insertCell().append(a);
      tr.insertCell().textContent = String(perf.rating);
      const p = tr.insertCell();
      p.textContent = signed(perf.progress);
      p.className = perf.progress > 0 ? "up" : perf.progress < 0 ? "down" : "";
    });
    section.append(table);
    return section;
  });
  box.replaceChildren(...sections);
  box.dataset.loaded = "1";
}
