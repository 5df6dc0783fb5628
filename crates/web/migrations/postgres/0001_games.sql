-- Every game of the play server on PostgreSQL: the same columns as the
-- SQLite table (`migrations/sqlite/0001_games.sql`), one row per game,
-- changed by compare-and-set on `version`. Several server processes may
-- share this database; a change is announced on the channel
-- `springboard_games` (NOTIFY) with {"id", "v"}.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    -- JSON array of {"uci", "san", "ms" (the mover's clock after the move,
    -- or null), "at" (server time in ms)}
    moves TEXT NOT NULL,
    mode TEXT NOT NULL,
    -- SHA-256 (hex) of the sb_player cookie holding each seat
    white_seat TEXT,
    black_seat TEXT,
    engine_color TEXT,
    engine_level BIGINT,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    white_ms BIGINT,
    black_ms BIGINT,
    turn_started_at BIGINT,
    status TEXT NOT NULL,
    result TEXT,
    reason TEXT,
    draw_offer TEXT,
    takeback_offer TEXT,
    rematch_offer TEXT,
    rematch_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    version BIGINT NOT NULL
);
CREATE INDEX games_updated ON games (updated_at);
CREATE INDEX games_status_updated ON games (status, updated_at);
CREATE INDEX games_white_seat ON games (white_seat);
CREATE INDEX games_black_seat ON games (black_seat);
