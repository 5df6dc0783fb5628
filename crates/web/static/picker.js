// @ts-check
// The game pickers (creation screen and game screen) and the engine's
// level picker, with each level's name and rough rating in that game.

import { $, $$, app } from "./state.js";

export function variantTitle(name) {
  const v = app.info && app.info.variants.find((x) => x.name === name);
  return v ? v.title : name;
}

export function fillSelect(select, options) {
  for (const [value, label] of options) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = label;
    select.append(o);
  }
}

// Both pickers show `name`, and the creation screen says what it will start.
export function showPicked(name) {
  if (!name) return;
  $("variant", HTMLSelectElement).value = name;
  $("game-variant", HTMLSelectElement).value = name;
  const title = variantTitle(name);
  $("create-title").textContent = `New game of ${title}`;
  $("variant-hint").textContent = `Choose how to play ${title} below.`;
  showLevels(name);
  for (const b of $$("#create-screen .card .primary")) b.title = `Start a game of ${title}`;
}

// The level picker of the engine card for a game: its levels' labels in
// that game (the level picked stays), and how they were measured.
export function showLevels(variant) {
  const engine = app.info && app.info.engine;
  if (!engine) return;
  const picker = $("engine-level", HTMLSelectElement);
  const picked = picker.value;
  picker.replaceChildren();
  fillSelect(picker, levelOptions(engine, variant));
  if (picked) picker.value = picked;
  const hint = $("level-hint");
  hint.hidden = !((engine.levels || {})[variant] || []).some((l) => l.elo);
  hint.textContent =
    variant === "chess"
      ? "Level names and ratings are rough: measured at chess against Fairy-Stockfish at a fast time control."
      : `Level names and ratings are rough: measured in ${variantTitle(variant)} in matches between the ` +
        "levels at a fast time control, with level 1 rated 1000.";
}

// The level picker's entries in a game: each level with its name and the
// rough rating the engine measured for it in that game, when it gives them.
function levelOptions(engine, variant) {
  const labels = new Map(((engine.levels || {})[variant] || []).map((l) => [l.level, l]));
  const options = [];
  for (let i = 1; i <= engine.max_level; i++) {
    const l = labels.get(i);
    let text = String(i);
    if (l) text += `: ${l.name}` + (l.elo ? ` (${l.elo})` : "");
    options.push([String(i), text]);
  }
  return options;
}
