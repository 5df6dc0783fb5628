// Issue 11 in a real browser: games of every kind exported by the page load
// back through the page (item 1); the game picker, the Load buttons and the
// board agree, and the text box's errors sit next to it (item 9); the rules
// open at their top and speak to players, without ruling ids (item 10).

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { newLocalGame, SCREENSHOTS, setUp, openTab } from "./harness.js";

// A server for each test: each creates many games.
const env = setUp({ serverEach: true });

const openPage = () => openTab(env.browser);

// Words that look like ruling ids (H5, P2, J10).
const RULING_ID = /\b[CPHTJLN][1-9][0-9]?\b/;

const moveTitles = (page) => page.locator("#moves button").evaluateAll((els) => els.map((e) => e.title));

// Clicks a Load button and waits for the new game it opens.
async function load(page, button, text) {
  const path = await page.evaluate(() => location.pathname);
  await page.fill("#text", text);
  await page.click(button);
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForFunction(() => document.getElementById("text-note").textContent !== "");
}

// A Hop Chess game with a double bounce (Bf1-c4-d5:b7, off both
// trampolines), a bounce off the opponent's trampoline (Nc3-d5:f6), kept
// trampolines (c4, d5) and a moved one (to e3); a Hoplit Chess game with
// two drops and a Hoplit capture. Both checked with `springboard perft`.
const GAMES = [
  ["hopchess", "e2e4 g8f6@d5 b1c3@c4 e7e5@d5 f1c4d5b7@c4 c8b7@d5 c3d5f6@e3 d8f6@d5", "Bf1-c4-d5:b7 c4"],
  ["hoplit", "g1h3 g8f6 f2f4 b8c6 H@g1 e7e6 g1f6 d8f6 e2e3 H@g8", "H@g1+"],
];

for (const [variant, moves, form] of GAMES) {
  test(`a ${variant} game shown as PGN loads back through the page`, async () => {
    const { page, errors } = await openPage();
    await newLocalGame(page, env.server.url, variant);
    const id = await page.evaluate(() => location.pathname.split("/")[2]);
    // The moves through the API, as the board would send them.
    await page.evaluate(
      async ([id, moves]) => {
        for (const [ply, move] of moves.split(" ").entries()) {
          const r = await fetch(`/api/games/${id}/move`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ move, ply }),
          });
          if (!r.ok) throw new Error(`${move}: ${await r.text()}`);
        }
      },
      [id, moves],
    );
    const n = moves.split(" ").length;
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n);
    await page.click("#export-pgn");
    await page.waitForFunction(() => document.getElementById("text").value.includes("[Variant"));
    const pgn = await page.locator("#text").inputValue();
    assert.ok(pgn.includes(`[Variant "${variant}"]`), pgn);
    assert.ok(pgn.replace(/\s+/g, " ").includes(form), pgn);
    const fen = await page.evaluate(async (id) => (await (await fetch(`/api/games/${id}/fen`)).json()).text, id);
    // Loaded in a chess game, the text's own game comes back.
    await newLocalGame(page, env.server.url, "chess");
    await load(page, "#import-pgn", pgn);
    await page.waitForFunction((k) => document.querySelectorAll("#moves button").length === k, n);
    assert.deepEqual(await moveTitles(page), moves.split(" "));
    assert.equal(await page.locator("#game-variant").inputValue(), variant);
    const back = await page.evaluate(() => location.pathname.split("/")[2]);
    assert.notEqual(back, id);
    const backFen = await page.evaluate(async (id) => (await (await fetch(`/api/games/${id}/fen`)).json()).text, back);
    assert.equal(backFen, fen);
    // Its PGN is the same game text.
    await page.click("#export-pgn");
    await page.waitForFunction(() => document.getElementById("text").value.includes("[Variant"));
    const again = await page.locator("#text").inputValue();
    assert.equal(again.split("\n\n")[1], pgn.split("\n\n")[1]);
    assert.equal(await page.locator("#text-error").textContent(), "");
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test("the picker follows a loaded text, and picking a game starts it", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "chess");
  assert.equal(await page.locator("#game-variant").inputValue(), "chess");
  // A Trampoline Chess PGN under Chess: loaded as Trampoline Chess, the
  // picker says so, and the note says why.
  const tramp = '[Variant "Trampoline Chess"]\n\n1. e4 e5 2. Td4 *\n';
  await load(page, "#import-pgn", tramp);
  await page.waitForFunction(() => document.getElementById("game-title").textContent === "Trampoline Chess");
  assert.equal(await page.locator("#game-variant").inputValue(), "trampoline");
  assert.deepEqual(await moveTitles(page), ["e2e4", "e7e5", "@d4"]);
  assert.match(
    await page.locator("#text-note").textContent(),
    /^Trampoline Chess: game loaded\. The text belongs to Trampoline Chess, not to Chess: the game picker now shows Trampoline Chess\.$/,
  );
  await page.screenshot({ path: join(SCREENSHOTS, "picker-after-trampoline-pgn.png") });
  // The creation screen's picker agrees.
  await page.click("#nav-new");
  await page.waitForSelector("#create-screen:not([hidden])");
  assert.equal(await page.locator("#variant").inputValue(), "trampoline");
  assert.equal(await page.locator("#create-title").textContent(), "New game of Trampoline Chess");
  await page.selectOption("#variant", "hoplit");
  assert.equal(await page.locator("#create-title").textContent(), "New game of Hoplit Chess");
  assert.equal(await page.locator("#variant-hint").textContent(), "Choose how to play Hoplit Chess below.");

  // A Hop Chess position under Chess: loaded as Hop Chess, named.
  await newLocalGame(page, env.server.url, "chess");
  await load(page, "#import-fen", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 -,- place");
  await page.waitForFunction(() => document.getElementById("game-title").textContent === "Hop Chess");
  assert.equal(await page.locator("#game-variant").inputValue(), "hopchess");
  assert.equal(
    await page.locator("#text-note").textContent(),
    "Hop Chess: position loaded. The text belongs to Hop Chess, not to Chess: the game picker now shows Hop Chess.",
  );
  // A plain chess game text under Hoplit Chess stays Hoplit Chess (its
  // rules read it too): the picked game wins when it reads the text.
  await newLocalGame(page, env.server.url, "hoplit");
  await load(page, "#import-pgn", "1. e4 e5 2. Nf3 *");
  await page.waitForFunction(() => document.getElementById("game-title").textContent === "Hoplit Chess");
  assert.equal(await page.locator("#text-note").textContent(), "Hoplit Chess: game loaded.");

  // Picking a game with nothing played starts it at once.
  await newLocalGame(page, env.server.url, "hoplit");
  let path = await page.evaluate(() => location.pathname);
  await page.selectOption("#game-variant", "jumpingking");
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForFunction(() => document.getElementById("game-title").textContent === "The Weak Square of the Jumping King");
  assert.equal(await page.locator("#moves button").count(), 0);
  // With moves played, it asks first; keeping the game keeps the picker.
  await page.locator('[data-square="a1"]').click();
  await page.locator('[data-square="c2"]').click();
  await page.waitForFunction(() => document.querySelectorAll("#moves button").length === 1);
  path = await page.evaluate(() => location.pathname);
  await page.selectOption("#game-variant", "hopchess");
  await page.waitForSelector("#variant-ask:not([hidden])");
  assert.equal(
    await page.locator("#variant-ask-text").textContent(),
    "Start a new game of Hop Chess? This game stays in your games.",
  );
  await page.click("#variant-no");
  assert.equal(await page.locator("#game-variant").inputValue(), "jumpingking");
  assert.equal(await page.evaluate(() => location.pathname), path);
  await page.selectOption("#game-variant", "hopchess");
  await page.click("#variant-yes");
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForFunction(() => document.getElementById("game-title").textContent === "Hop Chess");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the text box's errors sit next to it, and an empty load says so", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "chess");
  const path = await page.evaluate(() => location.pathname);
  // Empty: nothing starts, the box says why.
  for (const [button, what] of [
    ["#import-pgn", "a game \\(PGN\\)"],
    ["#import-fen", "a position \\(FEN\\)"],
  ]) {
    await page.fill("#text", "  \n ");
    await page.click(button);
    await page.waitForFunction(() => document.getElementById("text-error").textContent !== "");
    assert.match(await page.locator("#text-error").textContent(), new RegExp(`^The text box is empty: paste ${what} into it, then load it\\.$`));
    assert.equal(await page.evaluate(() => location.pathname), path);
  }
  // A move the rules refuse: named, under the box, the game unchanged.
  await page.fill("#text", "1. e4 e5 2. Ke3 *");
  await page.click("#import-pgn");
  await page.waitForFunction(() => /Ke3/.test(document.getElementById("text-error").textContent));
  assert.equal(
    await page.locator("#text-error").textContent(),
    "Move 2. 'Ke3': illegal move 'Ke3' in this position",
  );
  assert.equal(await page.evaluate(() => location.pathname), path);
  assert.equal(await page.locator("#error").textContent(), "");
  const box = await page.locator("#text").boundingBox();
  const err = await page.locator("#text-error").boundingBox();
  assert.ok(err.y > box.y + box.height && err.y - (box.y + box.height) < 80, JSON.stringify({ box, err }));
  assert.ok(Math.abs(err.x - box.x) < 5, JSON.stringify({ box, err }));
  await page.screenshot({ path: join(SCREENSHOTS, "text-error.png") });
  // A Hop Chess position text that Hop Chess refuses, under Chess: the
  // error names the game the text belongs to.
  await page.fill("#text", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e1,- place");
  await page.click("#import-fen");
  await page.waitForFunction(() => /Hop Chess/.test(document.getElementById("text-error").textContent));
  assert.equal(
    await page.locator("#text-error").textContent(),
    "This position is from Hop Chess, not Chess, and Hop Chess refuses it: " +
      "the White trampoline stands on e1, which holds a piece ('K')",
  );
  assert.equal(await page.evaluate(() => location.pathname), path);
  // A refused position speaks to players: no ruling ids.
  await newLocalGame(page, env.server.url, "jumpingking");
  await page.fill("#text", "5k2/8/8/8/8/PPPP4/8/K7[] w - 0 1");
  await page.click("#import-fen");
  await page.waitForFunction(() => /pawns/.test(document.getElementById("text-error").textContent));
  const reason = await page.locator("#text-error").textContent();
  assert.equal(reason, "The Weak Square of the Jumping King cannot load this position: White has 4 pawns on the board and to place; a side owns 3");
  assert.doesNotMatch(reason, RULING_ID);
  assert.deepEqual(errors, []);
  await page.close();
});

// Issue 45, item 6: the load box says what is wrong in plain words, and
// names a game only when the text is that game's.
test("the load box: prose is neither a FEN nor a PGN, and a loaded game's name reads well", async () => {
  const { page, errors } = await openPage();
  await newLocalGame(page, env.server.url, "chess");
  const path = await page.evaluate(() => location.pathname);
  const neither =
    "This is not a FEN or a PGN: a FEN (a position of Chess) has 6 fields separated by spaces, " +
    "starting with the ranks of the board from the 8th, like " +
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1; " +
    'a PGN (a game) has tag lines like [White "Anna"] and numbered moves like 1. e4 e5';
  for (const button of ["#import-fen", "#import-pgn"]) {
    await page.fill("#text", "this is not a fen");
    await page.click(button);
    await page.waitForFunction(() => document.getElementById("text-error").textContent !== "");
    assert.equal(await page.locator("#text-error").textContent(), neither, button);
    assert.equal(await page.evaluate(() => location.pathname), path);
  }
  // A Jumping King board that lacks only its brackets is the Jumping King's.
  await page.fill("#text", "5k2/8/8/8/8/8/8/K7 w Jj 0 1");
  await page.click("#import-fen");
  await page.waitForFunction(() => /needs the men still to place/.test(document.getElementById("text-error").textContent));
  assert.match(
    await page.locator("#text-error").textContent(),
    /^This position is from The Weak Square of the Jumping King, not Chess, and The Weak Square of the Jumping King refuses it: /,
  );
  // A chess board with a field missing is chess's, and says how many.
  await page.fill("#text", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0");
  await page.click("#import-fen");
  await page.waitForFunction(() => /fields/.test(document.getElementById("text-error").textContent));
  assert.equal(
    await page.locator("#text-error").textContent(),
    "Chess cannot load this position: expected 6 (or 4) fields separated by spaces, found 5",
  );
  // A Jumping King position loads; the note names the game without "a The".
  await page.fill("#text", "5k2/8/8/8/8/8/8/K7[RRBBNNPPPrrbbnnppp] w Jj 0 1");
  await page.click("#import-fen");
  await page.waitForFunction((p) => location.pathname !== p, path);
  await page.waitForFunction(() => document.getElementById("text-note").textContent !== "");
  assert.equal(
    await page.locator("#text-note").textContent(),
    "The Weak Square of the Jumping King: position loaded. The text belongs to The Weak Square of the Jumping King, " +
      "not to Chess: the game picker now shows The Weak Square of the Jumping King.",
  );
  assert.deepEqual(errors, []);
  await page.close();
});

test("the rules open at their top and cite no ruling ids", async () => {
  const { page, errors } = await openPage();
  await page.setViewportSize({ width: 1100, height: 600 });
  for (const variant of ["hopchess", "trampoline", "jumpingking", "hoplit", "chess"]) {
    await newLocalGame(page, env.server.url, variant);
    await page.click("#rules-button");
    await page.waitForSelector("#rules[open]");
    const dialog = page.locator("#rules");
    const text = await page.locator("#rules-text").textContent();
    assert.doesNotMatch(text, RULING_ID, `${variant}: ${text.match(RULING_ID)}`);
    // Longer than the dialog, and shown from its top.
    const [top, scrollable] = await dialog.evaluate((d) => [d.scrollTop, d.scrollHeight > d.clientHeight]);
    assert.equal(top, 0, variant);
    if (variant === "hopchess") {
      assert.ok(scrollable, "the Hop Chess rules are longer than the dialog");
      await page.screenshot({ path: join(SCREENSHOTS, "rules-top.png") });
      // Read to the bottom, closed, opened again: at the top again.
      await dialog.evaluate((d) => d.scrollTo(0, d.scrollHeight));
      assert.ok((await dialog.evaluate((d) => d.scrollTop)) > 0);
    }
    await page.click("#rules .rules-close button");
    await page.waitForFunction(() => !document.getElementById("rules").open);
    if (variant === "hopchess") {
      await page.click("#rules-button");
      await page.waitForSelector("#rules[open]");
      assert.equal(await dialog.evaluate((d) => d.scrollTop), 0);
      await page.click("#rules .rules-close button");
    }
  }
  assert.deepEqual(errors, []);
  await page.close();
});
