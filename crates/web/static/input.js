// @ts-check
// Move input, driven only by the server's legal move list. A move is
// picked in steps: its source (a piece on a square, a man in reserve, the
// trampoline, or a pass), then, square by square, the trampolines it
// bounces off and its final square; where several moves remain (promotion,
// a Jumping King's placed man, a double step against a bounce to the same
// square), the player chooses; a Hop Chess move then asks for the
// trampoline square (keeping it where it stands is one click).

export function sourceOf(m) {
  switch (m.kind) {
    case "drop":
      return "drop:" + m.role;
    case "trampoline":
      return "trampoline";
    case "pass":
      return "pass";
    default:
      return "sq:" + m.from;
  }
}

// The move without its Hop Chess placement part.
export function pieceKey(m) {
  return [m.kind, m.from, m.to, m.via.join(","), m.role].join("|");
}

function startsWith(via, path) {
  if (via.length < path.length) return false;
  return path.every((sq, i) => via[i] === sq);
}

export class MoveInput {
  constructor(legal) {
    this.legal = legal || [];
    this.reset();
  }

  reset() {
    this.source = null;
    this.path = [];
    this.placing = null; // the moves that differ only by placement
  }

  hasSource(key) {
    return this.legal.some((m) => sourceOf(m) === key);
  }

  select(key) {
    this.reset();
    if (this.hasSource(key)) this.source = key;
    return this.source !== null;
  }

  // The moves still possible with the steps taken so far.
  candidates() {
    if (this.source === null) return [];
    return this.legal.filter((m) => sourceOf(m) === this.source && startsWith(m.via, this.path));
  }

  // What to highlight: final squares, trampolines to bounce off next, and
  // (in the placement step) the trampoline squares.
  marks() {
    const marks = { finals: new Set(), bounces: new Set(), places: new Set() };
    if (this.placing) {
      for (const m of this.placing) marks.places.add(m.place);
      return marks;
    }
    for (const m of this.candidates()) {
      if (m.via.length > this.path.length) marks.bounces.add(m.via[this.path.length]);
      else if (m.to) marks.finals.add(m.to);
    }
    return marks;
  }

  // The player pointed at `sq`. Returns what follows:
  //   {type: "play", move}            a single move remains
  //   {type: "choose", groups}        several moves: each group is one
  //                                   piece move (with its placements)
  //   {type: "place"}                 now pick the trampoline square
  //   {type: "continue"}              a bounce step was taken
  //   {type: "none"}                  the square is not a target
  target(sq) {
    if (this.placing) {
      const m = this.placing.find((x) => x.place === sq);
      return m ? { type: "play", move: m } : { type: "none" };
    }
    const cands = this.candidates();
    const finals = cands.filter((m) => m.via.length <= this.path.length && m.to === sq);
    if (finals.length > 0) {
      // Every path through the trampolines chosen so far that ends here.
      const all = cands.filter((m) => m.to === sq);
      const groups = new Map();
      for (const m of all) {
        const key = pieceKey(m);
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(m);
      }
      const list = [...groups.values()];
      if (list.length > 1) return { type: "choose", groups: list };
      return this.chooseGroup(list[0]);
    }
    if (cands.some((m) => m.via.length > this.path.length && m.via[this.path.length] === sq)) {
      this.path.push(sq);
      return { type: "continue" };
    }
    return { type: "none" };
  }

  // One piece move chosen: play it, or go on to its placement.
  chooseGroup(group) {
    if (group.length === 1) return { type: "play", move: group[0] };
    this.placing = group;
    return { type: "place" };
  }
}
