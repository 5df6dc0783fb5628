"""The lichess-compatible API through berserk (scripts/api-test.sh runs it).

Alice challenges Bob by name to a rated correspondence Hop Chess game (3
days per move), Bob sees it on his event stream and accepts, both stream the game
and play through the Board API, Alice writes in the board chat and both
read it, Alice resigns, and `GET /api/user/{name}`
shows both ratings moved. Then the refusals: a forged token, acting on
another's challenge or game, accepting one's own or a taken challenge.
"""

import os
import queue
import sys
import threading

import berserk
import berserk.exceptions
import requests

URL = os.environ["SPRINGBOARD_URL"]
WAIT = 10


def client(token):
    return berserk.Client(session=berserk.TokenSession(token), base_url=URL)


def follow(iterator, into):
    """Reads a stream on a thread, each line into the queue `into`."""

    def run():
        try:
            for item in iterator:
                into.put(item)
        except Exception as e:  # the stream's end on exit
            into.put({"type": "error", "error": repr(e)})
        into.put({"type": "end"})

    threading.Thread(target=run, daemon=True).start()


def next_of(q, kind):
    """The next message of type `kind` (others are skipped)."""
    while True:
        m = q.get(timeout=WAIT)
        if m.get("type") == kind:
            return m
        if m.get("type") in ("error", "end"):
            raise AssertionError(f"the stream ended waiting for {kind}: {m}")


def refused(call, status, text):
    try:
        call()
    except berserk.exceptions.ResponseError as e:
        assert e.status_code == status, (e.status_code, e.cause)
        assert text in e.cause["error"], e.cause
        return
    raise AssertionError(f"accepted, expected {status} ({text})")


def check(cond, what):
    if not cond:
        raise AssertionError(what)


alice = client(os.environ["ALICE_TOKEN"])
bob = client(os.environ["BOB_TOKEN"])

me = alice.account.get()
check(me["username"] == "alice" and me["perfs"]["hopchess"]["rating"] == 1500, me)

alice_events, bob_events = queue.Queue(), queue.Queue()
follow(alice.board.stream_incoming_events(), alice_events)
follow(bob.board.stream_incoming_events(), bob_events)

# Days per move that the site does not offer: refused, nothing posted.
refused(
    lambda: alice.challenges.create("bob", rated=True, days=4, variant="hopchess"),
    400,
    "4 days per move is not offered",
)

sent = alice.challenges.create("bob", rated=True, days=3, variant="hopchess", color="white")
check(sent["variant"]["key"] == "hopchess" and sent["rated"] is True, sent)
check(sent["destUser"]["id"] == "bob" and sent["direction"] == "out", sent)

seen = next_of(bob_events, "challenge")["challenge"]
check(seen["id"] == sent["id"] and seen["challenger"]["id"] == "alice", seen)
check(seen["direction"] == "in" and seen["speed"] == "correspondence", seen)
check(seen["timeControl"] == {"type": "correspondence", "daysPerTurn": 3}, seen)

# Only Bob may take it; Alice cannot accept her own.
refused(lambda: alice.challenges.accept(sent["id"]), 409, "your own challenge")
bob.challenges.accept(sent["id"])
refused(lambda: bob.challenges.accept(sent["id"]), 404, "no such challenge")

a_start = next_of(alice_events, "gameStart")["game"]
b_start = next_of(bob_events, "gameStart")["game"]
game = a_start["gameId"]
check(b_start["gameId"] == game, (a_start, b_start))
check(a_start["color"] == "white" and b_start["color"] == "black", (a_start, b_start))
check(a_start["opponent"]["username"] == "bob" and a_start["isMyTurn"] is True, a_start)

a_game, b_game = queue.Queue(), queue.Queue()
follow(alice.board.stream_game_state(game), a_game)
follow(bob.board.stream_game_state(game), b_game)
full = next_of(a_game, "gameFull")
check(full["id"] == game and full["rated"] is True, full)
check(full["white"]["id"] == "alice" and full["black"]["id"] == "bob", full)
check(full["variant"]["key"] == "hopchess" and full["initialFen"] == "startpos", full)
check(full["clock"] is None and full["daysPerTurn"] == 3, full)
check(full["speed"] == "correspondence", full)
check(full["state"]["moves"] == "" and full["state"]["status"] == "started", full)
next_of(b_game, "gameFull")

# A Hop Chess turn from Black's first on places the mover's trampoline
# (`@square`; H2, H3).
moves = ["e2e4", "e7e5@a6", "g1f3@h3", "b8c6@a6"]
for i, mv in enumerate(moves):
    player = alice if i % 2 == 0 else bob
    # Out of turn: refused, nothing changes.
    other = bob if i % 2 == 0 else alice
    refused(lambda: other.board.make_move(game, mv), 409, "")
    player.board.make_move(game, mv)
    for q in (a_game, b_game):
        state = next_of(q, "gameState")
        check(state["moves"] == " ".join(moves[: i + 1]), state)
        check(state["status"] == "started", state)

# The board chat: Alice writes in the players' room (HTML is plain text);
# both read the line there. The spectators' room is not hers.
alice.board.post_message(game, "good luck <b>bob</b>")
for player in (alice, bob):
    chat = player.board.get_game_chat(game)
    check({"user": "alice", "text": "good luck <b>bob</b>"} in chat, chat)
refused(lambda: alice.board.post_message(game, "hi", spectator=True), 403, "players' room")
refused(lambda: alice.board.post_message(game, "x" * 141), 400, "140")

# Bob cannot resign for Alice... he can only resign for himself; Alice
# resigns.
alice.board.resign_game(game)
for q in (a_game, b_game):
    state = next_of(q, "gameState")
    check(state["status"] == "resign" and state["winner"] == "black", state)
    check(next_of(q, "end")["type"] == "end", "the game stream ends")

for q in (alice_events, bob_events):
    fin = next_of(q, "gameFinish")["game"]
    check(fin["gameId"] == game and fin["status"]["name"] == "resign", fin)
    check(fin["winner"] == "black", fin)

a = alice.users.get_public_data("alice")["perfs"]["hopchess"]
b = bob.users.get_public_data("bob")["perfs"]["hopchess"]
check(a["games"] == 1 and b["games"] == 1, (a, b))
check(a["rating"] < 1500 < b["rating"], (a, b))
# Glicko-2 from 1500 (RD 500) each: one decisive game.
check((a["rating"], b["rating"]) == (1258, 1742), (a, b))

pgn = alice.games.export(game, as_pgn=True)
check('[Result "0-1"]' in pgn and '[White "alice"]' in pgn and '[Black "bob"]' in pgn, pgn)
check("1. e4 e5 a6 2. Nf3 h3 Nc6 a6" in pgn and "[Variant \"hopchess\"]" in pgn, pgn)
mine = "".join(alice.games.export_by_player("alice", as_pgn=True))
check(game in mine and '[Result "0-1"]' in mine, mine)

# A forged token changes nothing.
forged = client("sbp_" + "x" * 32)
refused(lambda: forged.account.get(), 401, "No such token")
refused(lambda: forged.challenges.create("bob", rated=False), 401, "No such token")
r = requests.post(f"{URL}/api/board/game/{game}/resign", headers={"Authorization": "Bearer nope"})
check(r.status_code == 401 and r.json() == {"error": "No such token"}, r.text)

# Another's challenge: Bob cannot cancel Alice's, nor decline an open one.
casual = alice.challenges.create("bob", rated=False, clock_limit=300, clock_increment=0)
next_of(bob_events, "challenge")
refused(lambda: bob.challenges.cancel(casual["id"]), 403, "only its author")
refused(lambda: alice.challenges.decline(casual["id"]), 403, "only the challenged")
bob.challenges.decline(casual["id"])
declined = next_of(alice_events, "challengeDeclined")["challenge"]
check(declined["id"] == casual["id"], declined)

# A casual challenge from a position: the rules core reads and checks it
# (a position it refuses is a 400 with its reason), and the game would
# start there.
pos = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
from_pos = alice.challenges.create("bob", rated=False, clock_limit=300, clock_increment=0, position=pos)
check(from_pos["initialFen"] == pos, from_pos)
alice.challenges.cancel(from_pos["id"])
refused(lambda: alice.challenges.create("bob", rated=False, position="8/8/8/8/8/8/8/8 w - - 0 1"), 400, "")
refused(lambda: alice.challenges.create("bob", rated=True, days=3, position=pos), 400, "cannot be rated")

# Another's game: a finished one, and one Bob does not play.
refused(lambda: bob.board.make_move(game, "d2d4"), 409, "")
print(f"api test: game {game} played through berserk, ratings {a['rating']} and {b['rating']}")
