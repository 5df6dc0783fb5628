-- Blocks between accounts (`crates/web/src/relation/`): `blocker` blocks
-- `blocked` (both account ids, the lower-cased names). Between them no
-- personal challenge is posted and no open challenge accepted, either way,
-- and the blocker is shown no chat line of the blocked.
CREATE TABLE blocks (
    blocker TEXT NOT NULL,
    blocked TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
);

CREATE INDEX blocks_by_blocked ON blocks (blocked);

-- Game chat (`crates/web/src/chat/`): the lines of a game's two rooms,
-- `player` (the two seats of a friend game) and `spectator` (everyone
-- else; signed-in accounts write).
CREATE TABLE chat_lines (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    -- `player` or `spectator`.
    room TEXT NOT NULL,
    -- The author's account id; NULL for an anonymous seat holder.
    author_user TEXT,
    -- The name shown: the account's name, or the side (`White`, `Black`).
    author_name TEXT NOT NULL,
    -- Trimmed, at most 140 characters, no control characters.
    text TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX chat_lines_by_game ON chat_lines (game, room, id);
