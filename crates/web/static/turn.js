// @ts-check
// The "your turn" list on the home page (GET /api/games/your-turn): every
// game being played where this player (the account's every browser, or
// this one) is to move, the least time left first, each a link to the
// game with the opponent and the time left. Read again when the home page
// is shown, when the lobby socket tells of a change, and every 30 s.

import { api } from "./api.js";
import { formatDays, deadlineText } from "./clocks.js";
import { $, app } from "./state.js";

const EVERY_MS = 30000;
let shown = "";
let loading = false;

function opponent(g) {
  const o = g.color === "white" ? g.black : g.white;
  return o && o.name ? o.name : "Anonymous";
}

function timeLeft(g) {
  if (g.left_ms === null || g.left_ms === undefined) return "no clock";
  return `${formatDays(g.left_ms)} left`;
}

/** Reads the list again and shows it (hidden when empty). */
export async function loadTurns() {
  if (loading) return;
  loading = true;
  try {
    const r = await api.yourTurn();
    renderTurns(r.games || []);
  } catch (_) {
    // Kept as it was: the next read may succeed.
  } finally {
    loading = false;
  }
}

function renderTurns(games) {
  const list = $("your-turn-list");
  list.textContent = "";
  for (const g of games) {
    const li = document.createElement("li");
    li.dataset.id = g.id;
    const a = document.createElement("a");
    a.href = `/g/${g.id}`;
    a.dataset.nav = "";
    a.textContent = `${g.title} vs ${opponent(g)}`;
    const time = document.createElement("span");
    time.className = "turn-time";
    time.textContent = `${timeLeft(g)}${g.correspondence ? ` (${g.correspondence.label})` : ""}`;
    if (g.deadline) time.title = `Move by ${deadlineText(g.deadline)}`;
    li.append(a, " ", time);
    list.append(li);
  }
  $("your-turn").hidden = games.length === 0;
}

export function wireTurns() {
  // The home page shown again, or every EVERY_MS while it is in front.
  let last = 0;
  setInterval(() => {
    if (app.screen !== "create" || document.visibilityState === "hidden") {
      shown = "";
      return;
    }
    const now = Date.now();
    if (shown !== "create" || now - last >= EVERY_MS) {
      shown = "create";
      last = now;
      loadTurns();
    }
  }, 500);
  document.addEventListener("lobby-change", () => {
    if (app.screen === "create") loadTurns();
  });
  document.addEventListener("account", () => loadTurns());
}
