// @ts-check
// The clocks: the time controls offered, the players' clocks counting
// down between the server's readings, and a time control's label.

import { refresh } from "./live.js";
import { $, app, other, ended } from "./state.js";

// The time controls offered at creation: [label, clock or null].
export const CLOCKS = [
  ["1+0", { initial: 60, increment: 0 }],
  ["3+2", { initial: 180, increment: 2 }],
  ["5+3", { initial: 300, increment: 3 }],
  ["10+5", { initial: 600, increment: 5 }],
  ["15+10", { initial: 900, increment: 10 }],
  ["Unlimited", null],
];

// The correspondence time controls friend games and challenges offer
// besides CLOCKS: [label, {correspondence}].
export const CORRESPONDENCE = [
  ["1 day per move", { correspondence: { days_per_move: 1 } }],
  ["2 days per move", { correspondence: { days_per_move: 2 } }],
  ["3 days per move", { correspondence: { days_per_move: 3 } }],
  ["5 days per move", { correspondence: { days_per_move: 5 } }],
  ["7 days per move", { correspondence: { days_per_move: 7 } }],
  ["14 days per move", { correspondence: { days_per_move: 14 } }],
  ["10 days + 2 per move", { correspondence: { bank_days: 10, days_per_move: 2 } }],
];

// Every time control of a friend game or a challenge: the live clocks,
// then the correspondence ones.
export const TIME_CONTROLS = [...CLOCKS, ...CORRESPONDENCE];

// The request fields of TIME_CONTROLS[i]: {clock} or {correspondence}.
export function timeControlFields(i) {
  const t = TIME_CONTROLS[i];
  const c = t ? t[1] : null;
  if (c && typeof c === "object" && "correspondence" in c) return { correspondence: c.correspondence };
  return { clock: c };
}

const DAY_MS = 86400000;

// A correspondence clock's time: days and hours, hours and minutes, or
// the live clock's figures in its last hour.
export function formatDays(ms) {
  if (ms >= DAY_MS) {
    const d = Math.floor(ms / DAY_MS);
    const h = Math.floor((ms % DAY_MS) / 3600000);
    return `${d}d ${h}h`;
  }
  if (ms >= 3600000) return `${Math.floor(ms / 3600000)}h ${Math.floor((ms % 3600000) / 60000)}m`;
  return formatClock(ms);
}

// A deadline (server ms) as the reader's local date and time.
export function deadlineText(at) {
  return new Date(at).toLocaleString(undefined, { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

// A clock at or under this many ms is shown as running low.
const LOW_TIME_MS = 20000;

function clockMs(color) {
  const g = app.game;
  if (!g || !g.clock) return null;
  let ms = g.clock[color + "_ms"];
  if (g.clock.running === color && !ended(g)) ms -= performance.now() - app.clockAt;
  return Math.max(0, ms);
}

function formatClock(ms) {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, "0");
  if (h > 0) return `${h}:${String(m).padStart(2, "0")}:${ss}`;
  if (ms < 10000) return `${m}:${ss}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${ss}`;
}

export function renderClocks() {
  const g = app.game;
  for (const [box, color] of playerBoxes()) {
    const el = /** @type {HTMLElement} */ (box.querySelector(".clock"));
    if (!g || !g.clock) {
      el.hidden = true;
      continue;
    }
    const ms = clockMs(color);
    el.hidden = false;
    const corr = g.clock.correspondence;
    el.textContent = corr ? formatDays(ms) : formatClock(ms);
    el.classList.toggle("days", !!corr);
    el.title =
      corr && g.clock.running === color && g.clock.deadline && !ended(g)
        ? `${corr.label}: moves by ${deadlineText(g.clock.deadline)}`
        : corr
          ? corr.label
          : "";
    el.dataset.ms = String(Math.round(ms));
    el.classList.toggle("running", g.clock.running === color && !ended(g));
    el.classList.toggle("low", ms <= LOW_TIME_MS && !ended(g));
    el.classList.toggle("flagged", ms <= 0);
    // The server ends the game when a flag falls (and tells every tab);
    // a tab whose count reached zero asks once more in case it missed it.
    if (ms <= 0 && g.clock.running === color && !ended(g) && app.flagAsked !== g.version) {
      app.flagAsked = g.version;
      setTimeout(refresh, 600);
    }
  }
}

// The players' boxes above and below the board, each with the colour it
// shows (as the board is turned).
/** @returns {Array<[HTMLElement, string]>} */
export function playerBoxes() {
  const top = app.board && app.board.flipped ? "white" : "black";
  return [
    [$("player-top"), top],
    [$("player-bottom"), other(top)],
  ];
}

export function clockLabel(c) {
  if (!c) return "Unlimited";
  if (c.correspondence) return c.correspondence.label;
  const initial = c.initial_ms !== undefined ? c.initial_ms / 1000 : c.initial;
  const inc = c.increment_ms !== undefined ? c.increment_ms / 1000 : c.increment;
  const min = initial / 60;
  const label = Number.isInteger(min) ? String(min) : min.toFixed(1);
  return `${label}+${inc}`;
}
