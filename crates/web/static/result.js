// @ts-check
// A game's result, as shown: the winner, how it ended, the score.

import { sideName } from "./state.js";

const REASONS = {
  time: "on time",
  resignation: "by resignation",
  "draw agreed": "by agreement",
  "weak square": "by reaching the weak square",
  "game text": "as the loaded game text states",
};

export function resultOf(g) {
  if (g.result) {
    const winner = g.result === "1-0" ? "white" : g.result === "0-1" ? "black" : null;
    return { result: g.result, winner, reason: g.reason || (g.outcome && g.outcome.reason) || "" };
  }
  if (g.outcome) return g.outcome;
  return null;
}

// The score as written under a game: 1-0, 0-1, or ½-½ for a draw.
export function scoreText(result) {
  return result === "1/2-1/2" ? "\u00BD-\u00BD" : result;
}

export function resultText(r) {
  if (r.winner) {
    const how = REASONS[r.reason] || (r.reason ? `by ${r.reason}` : "");
    return `${sideName(r.winner)} wins ${how}`.trim();
  }
  if (r.reason === "aborted") return "Game aborted";
  if (r.reason === "draw agreed") return "Draw by agreement";
  if (r.reason === "game text") return "Draw, as the loaded game text states";
  if (r.reason === "time vs insufficient material") return "Draw: time ran out, but the other side cannot mate";
  return r.reason ? `Draw by ${r.reason}` : "Draw";
}
