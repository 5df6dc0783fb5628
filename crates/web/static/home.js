// @ts-check
// The creation screen: a new game against the engine, with a friend, at
// one screen or for analysis, and the landing page's introduction.

import { api } from "./api.js";
import { CLOCKS, TIME_CONTROLS, timeControlFields } from "./clocks.js";
import { createHere, unreachable, wireOffline } from "./offline.js";
import { fillSelect, showPicked, showLevels } from "./picker.js";
import { navigate, openGame } from "./router.js";
import { showRules } from "./rules.js";
import { $, $$, app } from "./state.js";

function clockOf(selectId) {
  const c = CLOCKS[Number($(selectId, HTMLSelectElement).value)];
  return c ? c[1] : null;
}

// A new game on the server; when the server cannot be reached, a game
// against the engine, at one screen or for analysis is kept in this
// browser instead (untimed), and `here` asks for that at once.
async function create(req, hash, here = false) {
  $("create-error").textContent = "";
  const variant = $("variant", HTMLSelectElement).value;
  try {
    let v;
    try {
      if (here) throw new TypeError("in the browser");
      v = await api.create({ variant, ...req });
    } catch (err) {
      if (!unreachable(err) || req.mode === "friend") throw err;
      v = await createHere(variant, req);
    }
    history.pushState(null, "", `/g/${v.id}${hash || ""}`);
    await openGame(String(v.id), v);
  } catch (err) {
    $("create-error").textContent = unreachable(err) ? `The server cannot be reached: ${err.message}` : err.message;
  }
}

function engineRequest() {
  return {
    mode: "engine",
    color: $("engine-color", HTMLSelectElement).value,
    level: Number($("engine-level", HTMLSelectElement).value),
    clock: clockOf("engine-clock"),
  };
}

export function wireCreation() {
  const select = $("variant", HTMLSelectElement);
  fillSelect(select, app.info.variants.map((v) => [v.name, v.title]));
  fillSelect($("game-variant"), app.info.variants.map((v) => [v.name, v.title]));
  select.addEventListener("change", () => showPicked(select.value));
  showPicked(select.value);
  const clocks = CLOCKS.map(([label], i) => [String(i), label]);
  // A friend game may be played by correspondence too: its select gets
  // every time control below, the others the live clocks only.
  for (const sel of $$(".clock-select")) if (sel.id !== "friend-clock") fillSelect(sel, clocks);
  fillSelect($("friend-clock"), TIME_CONTROLS.map(([label], i) => [String(i), label]));
  $("friend-clock", HTMLSelectElement).value = "2"; // 5+3
  $("engine-clock", HTMLSelectElement).value = String(CLOCKS.length - 1); // unlimited
  $("local-clock", HTMLSelectElement).value = String(CLOCKS.length - 1);
  if (app.info.engine) {
    $("card-engine").hidden = false;
    $("card-analysis").hidden = false;
    showLevels(select.value);
  }
  $("create-engine").addEventListener("click", () => create(engineRequest()));
  wireOffline(() => create(engineRequest(), "", true));
  $("create-friend").addEventListener("click", () =>
    create({
      mode: "friend",
      color: $("friend-color", HTMLSelectElement).value,
      ...timeControlFields(Number($("friend-clock", HTMLSelectElement).value)),
      // Rated: only when signed in (the box is shown then) and ticked.
      ...(!$("friend-rated-label").hidden && $("friend-rated", HTMLInputElement).checked ? { rated: true } : {}),
    }),
  );
  $("create-local").addEventListener("click", () => create({ mode: "local", clock: clockOf("local-clock") }));
  $("create-analysis").addEventListener("click", () => create({ mode: "local", clock: null }, "#analysis"));
  for (const b of $$("#games-screen .tabs button")) {
    b.addEventListener("click", () => navigate(`/games?list=${b.dataset.list}`));
  }
}

// The landing page's introduction: each game's rules link opens its rules;
// on a phone the list of games starts folded, so the cards stay in view.
export function wireIntro() {
  for (const a of $$("#intro a[data-rules]")) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      showRules(a.dataset.rules);
    });
  }
  if (window.matchMedia("(max-width: 600px)").matches) $("intro-games", HTMLDetailsElement).open = false;
}
