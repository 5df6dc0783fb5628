-- Every game of the play server: one row, changed by compare-and-set on
-- `version` (the row is updated only when its version is the one the
-- server read). Portable SQL: the PostgreSQL store uses the same columns.
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
    engine_level INTEGER,
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
