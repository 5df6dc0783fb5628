// @ts-check
// The game as text: FEN and PGN exported, copied or loaded (a loaded
// text starts a game at one screen), and a new game of another variant
// picked on the game screen.

import { api } from "./api.js";
import { run } from "./commands.js";
import { textMessage } from "./notices.js";
import { createHere, unreachable } from "./offline.js";
import { variantTitle, showPicked } from "./picker.js";
import { navigate, openGame } from "./router.js";
import { $, app, ended } from "./state.js";

// Copies the game's PGN (as the server writes it) to the clipboard; where
// the browser refuses, the text is put in the text box, selected.
export async function copyPgn() {
  const note = $("pgn-note");
  note.textContent = "";
  let text;
  try {
    text = (await api.pgn(app.gameId)).text;
  } catch (err) {
    note.textContent = err.message;
    return;
  }
  try {
    await navigator.clipboard.writeText(text);
    note.textContent = "PGN copied";
  } catch {
    $("text", HTMLTextAreaElement).value = text;
    $("text", HTMLTextAreaElement).select();
    note.textContent = "Copying is blocked here: the PGN is in the text box below, selected";
  }
}

export async function exportText(kind) {
  textMessage("", "");
  try {
    const r = kind === "fen" ? await api.fen(app.gameId) : await api.pgn(app.gameId);
    $("text", HTMLTextAreaElement).value = r.text;
  } catch (err) {
    textMessage("", err.message);
  }
}

// A loaded position or game text starts a new game at one screen, of the
// game the text belongs to: the server's readers say which games read it
// (the picked game if it is one of them, else the first); the picker
// follows, and the note says when that is not the game that was picked.
export async function importText(kind) {
  const text = $("text", HTMLTextAreaElement).value;
  const what = kind === "fen" ? "a position (FEN)" : "a game (PGN)";
  textMessage("", "");
  if (!text.trim()) {
    textMessage("", `The text box is empty: paste ${what} into it, then load it.`);
    $("text").focus();
    return;
  }
  if (app.busy) return;
  app.busy = true;
  const picked = pickedVariant();
  const hash = $("analysis-toggle", HTMLInputElement).checked ? "#analysis" : "";
  try {
    let found;
    try {
      found = await api.detect(text);
    } catch (err) {
      // The server cannot be reached: a game text is read in the browser
      // (the rules core) into a game kept here.
      if (!unreachable(err) || kind !== "pgn") throw err;
      const v = await createHere(picked, { mode: "local", pgn: text });
      history.pushState(null, "", `/g/${v.id}${hash}`);
      await openGame(String(v.id), v);
      textMessage(`${variantTitle(v.variant)}: game loaded in this browser.`, "");
      return;
    }
    const readable = found.variants.length > 0;
    const as = readable ? (found.kind === "position" ? "fen" : "pgn") : kind;
    const variant = found.variants.includes(picked) ? picked : readable ? found.variants[0] : picked;
    const v = await api.create({ variant, mode: "local", [as]: text });
    history.pushState(null, "", `/g/${v.id}${hash}`);
    await openGame(String(v.id), v);
    // The game's title leads ("Chess: position loaded."): no article
    // comes before a title, which reads well for every game's name.
    const thing = as === "fen" ? "position" : "game";
    const title = variantTitle(variant);
    let note = `${title}: ${thing} loaded.`;
    if (variant !== picked) note += ` The text belongs to ${title}, not to ${variantTitle(picked)}: the game picker now shows ${title}.`;
    textMessage(note, "");
  } catch (err) {
    textMessage("", err.message);
  } finally {
    app.busy = false;
  }
}

// The game the picker shows: the open game's on the game screen, else the
// creation screen's choice.
function pickedVariant() {
  return app.screen === "game" && $("game-variant", HTMLSelectElement).value ? $("game-variant", HTMLSelectElement).value : $("variant", HTMLSelectElement).value;
}

// A game picked on the game screen: a new game of it at one screen, at
// once when nothing is lost, else after asking; from a game played
// against the engine or a friend, the creation screen asks how to play it.
export function onGamePicked() {
  const name = $("game-variant", HTMLSelectElement).value;
  const g = app.game;
  $("variant-ask").hidden = true;
  if (!g || name === g.variant) return;
  const title = variantTitle(name);
  if (g.mode !== "local") {
    showPicked(name);
    navigate("/");
    return;
  }
  if (g.plies > 0 && !ended(g)) {
    $("variant-ask-text").textContent = `Start a new game of ${title}? This game stays in your games.`;
    $("variant-ask").dataset.variant = name;
    $("variant-ask").hidden = false;
    return;
  }
  startPicked(name);
}

export async function startPicked(name) {
  $("variant-ask").hidden = true;
  const hash = $("analysis-toggle", HTMLInputElement).checked ? "#analysis" : "";
  const clock = app.game && app.game.clock ? { initial: app.game.clock.initial_ms / 1000, increment: app.game.clock.increment_ms / 1000 } : null;
  await run(async () => {
    const v = await api.create({ variant: name, mode: "local", clock });
    history.pushState(null, "", `/g/${v.id}${hash}`);
    await openGame(String(v.id), v);
  });
}
