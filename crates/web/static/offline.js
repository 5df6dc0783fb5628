// @ts-check
// The page without the server: the service worker (/sw.js) that keeps the
// page and the engine in the browser, the server's info kept from the last
// visit (the games, the engine's levels), and, on the creation screen, the
// game against the engine in this browser ("Play in this browser") and
// the list of the games kept here (localgame.js).

import { api } from "./api.js";
import { createLocal, localGames, forgetLocal } from "./localgame.js";
import { loadRules } from "./localrules.js";
import { resultOf, resultText } from "./result.js";
import { $, app } from "./state.js";

const INFO_KEY = "springboard.info";

// Registers the service worker; a browser without one (or a page not
// served over HTTPS or from localhost) plays through the server alone.
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch((err) => console.warn("no service worker:", err));
}

// The server's info (GET /api/info), kept for the next visit; when the
// server cannot be reached, the one kept (marked `offline`), else the
// error.
export async function serverInfo() {
  try {
    const info = await api.info();
    try {
      localStorage.setItem(INFO_KEY, JSON.stringify(info));
    } catch (_) {
      // Storage full or refused: the next visit needs the server.
    }
    return info;
  } catch (err) {
    if (err.status !== undefined) throw err;
    const kept = localStorage.getItem(INFO_KEY);
    if (!kept) throw err;
    return { ...JSON.parse(kept), offline: true };
  }
}

// Whether `err` is a request the server never answered (the network cut).
export function unreachable(err) {
  return !!err && err.status === undefined;
}

// A new game kept in this browser from the creation screen's choices
// (`req` as for the server: mode, color, level); its view.
export function createHere(variant, req) {
  const v = app.info.variants.find((x) => x.name === variant);
  const engine = app.info.engine;
  return createLocal({
    variant,
    mode: req.mode === "engine" ? "engine" : "local",
    color: req.color,
    level: req.level,
    title: v ? v.title : variant,
    engineName: engine ? engine.name : null,
    pgn: req.pgn,
  });
}

// The games kept in this browser, on the creation screen: each a link to
// its page, with its state; a finished one may be dropped.
export function renderLocalGames() {
  const games = localGames();
  $("local-games").hidden = games.length === 0;
  const list = $("local-games-list");
  list.replaceChildren(
    ...games.map((g) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/g/${g.id}`;
      a.dataset.nav = "";
      const who = g.mode === "engine" ? `against the engine, level ${g.level}` : "at one screen";
      a.textContent = `${g.title} ${who}`;
      const r = resultOf(g);
      const state = document.createElement("span");
      state.className = "hint";
      const moves = g.moves.length;
      state.textContent = ` ${moves} ${moves === 1 ? "move" : "moves"}, ` + (r ? resultText(r) : "playing");
      li.append(a, state);
      if (g.status === "ended") {
        const drop = document.createElement("button");
        drop.type = "button";
        drop.textContent = "Forget";
        drop.title = "Remove this game from this browser";
        drop.addEventListener("click", () => {
          forgetLocal(g.id);
          renderLocalGames();
        });
        li.append(" ", drop);
      }
      return li;
    }),
  );
}

// Loads the rules core (once the first screen is drawn and the browser is
// idle: app.js) and, with it, offers the game in this browser.
export function startRules() {
  loadRules().then((mod) => {
    $("create-offline").hidden = !mod || !app.info.engine;
  });
}

// The creation screen's parts of the page without the server: the button
// of the game against the engine in this browser (`play` starts it) and
// the list of the games kept here; when the server could not be reached,
// a note that says so.
export function wireOffline(play) {
  $("create-offline").addEventListener("click", play);
  $("offline-note").hidden = !app.info.offline;
  renderLocalGames();
}
