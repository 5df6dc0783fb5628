// @ts-check
// The chooser: promotion, the man a jumping king leaves behind, or which
// of two moves that end on the same square.

import { pieceSvg, roleName } from "./pieces.js";
import { $, app } from "./state.js";

function describe(m, turn) {
  const parts = [];
  if (m.kind === "double_step") parts.push("double step");
  if (m.kind === "en_passant") parts.push("en passant");
  if (m.via.length) parts.push("bounce via " + m.via.join(", "));
  if (m.kind === "jump") parts.push(m.role ? `place a ${roleName(m.role)}` : "place nothing");
  else if (m.role) parts.push(roleName(m.role));
  else if (m.kind === "normal" && !m.via.length) parts.push(turn ? "no promotion" : "");
  return parts.filter(Boolean).join(", ") || m.san;
}

// The chooser lists `groups` (moves the board cannot tell apart); the
// group picked goes to `onChoose`.
export function openChooser(groups, onChoose) {
  const box = $("chooser-options");
  box.replaceChildren();
  const roles = groups.some((g) => g[0].role);
  $("chooser-title").textContent = groups.every((g) => g[0].kind === "jump")
    ? "Which man does the king leave behind?"
    : roles
      ? "Promote to:"
      : "Which move?";
  for (const group of groups) {
    const m = group[0];
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.uci = m.uci;
    b.dataset.role = m.role || "";
    if (m.role) {
      const letter = app.state.turn === "white" ? m.role.toUpperCase() : m.role;
      b.append(pieceSvg(letter));
    }
    const label = document.createElement("span");
    label.textContent = describe(m, roles);
    b.append(label);
    b.addEventListener("click", () => {
      closeChooser();
      onChoose(group);
    });
    box.append(b);
  }
  $("chooser").hidden = false;
}

export function closeChooser() {
  $("chooser").hidden = true;
}
