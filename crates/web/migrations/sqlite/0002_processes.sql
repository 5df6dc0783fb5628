-- The server processes on this database (`migrations/postgres/0002`): a
-- heartbeat row per process. A SQLite file has one server process, which
-- always restarts the running clocks at start-up; the table is kept for
-- the same code on both stores. Presence stays in memory.
CREATE TABLE processes (
    id TEXT PRIMARY KEY NOT NULL,
    started_at BIGINT NOT NULL,
    seen_at BIGINT NOT NULL
);
