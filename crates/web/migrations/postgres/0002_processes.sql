-- The server processes on this database and who is connected through each.
-- A process writes its row every few seconds (`seen_at`, ms): one that
-- starts while no other is fresh restarts the running clocks (nobody was
-- serving the games, so the outage is not charged). `presence` counts the
-- sockets of each game on each process; the rows of a process whose
-- heartbeat is stale are ignored and later deleted. A presence change is
-- announced on `springboard_games` with {"id", "p"} (the process).
CREATE TABLE processes (
    id TEXT PRIMARY KEY NOT NULL,
    started_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL
);

CREATE TABLE presence (
    process TEXT NOT NULL,
    game TEXT NOT NULL,
    white INTEGER NOT NULL,
    black INTEGER NOT NULL,
    spectators INTEGER NOT NULL,
    PRIMARY KEY (process, game)
);

CREATE INDEX presence_by_game ON presence (game);
