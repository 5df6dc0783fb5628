-- The lobby (`crates/web/src/lobby/`): open challenges, which anyone may
-- accept, and personal ones (`target_user` set), which only the named
-- account may accept or decline. A challenge is a row until it is
-- accepted (the row is deleted in the statement that claims it, so two
-- accepts at once cannot both win), cancelled, declined or withdrawn.
CREATE TABLE challenges (
    id TEXT PRIMARY KEY NOT NULL,
    -- The author's seat (the browser's cookie hash): the new game's seat.
    author_seat TEXT NOT NULL,
    -- The author's account (lower-cased name) and name as typed; NULL for
    -- an anonymous author.
    author_user TEXT,
    author_name TEXT,
    -- A personal challenge: the challenged account (lower-cased name).
    target_user TEXT,
    target_name TEXT,
    -- The game's name, as `GET /api/info` names it.
    variant TEXT NOT NULL,
    -- The clock (ms); NULL for a game without one.
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    -- The author's colour: `white`, `black` or `random`.
    color TEXT NOT NULL,
    rated BOOLEAN NOT NULL,
    -- The rating range the acceptor's rating in this game must fall into.
    min_rating BIGINT,
    max_rating BIGINT,
    -- The server process whose lobby sockets hold the challenge: it is
    -- withdrawn when its author's last socket there is gone, and with the
    -- process when it dies.
    process TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX challenges_by_author ON challenges (author_seat);
CREATE INDEX challenges_by_target ON challenges (target_user);
