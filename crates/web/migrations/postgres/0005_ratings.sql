-- Ratings (`crates/web/src/ratings/`): Glicko-2 per user and game, as
-- lichess keeps them. A game is rated or casual (`games.rated`); a rated
-- game that ends with a result between two accounts moves both players'
-- ratings, in the transaction that ends it, and leaves one history row per
-- player with the rating before and after.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- A user's rating in one game (`variant`: the game's name, as
-- `GET /api/info` names it). No row: never rated there (1500, RD 500).
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    -- Rated games played in this game.
    games BIGINT NOT NULL,
    -- When the last rated game ended (ms since the Unix epoch).
    last_game_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);

-- Each rated game's change of each player's rating.
CREATE TABLE rating_history (
    game_id TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    variant TEXT NOT NULL,
    -- The player's colour in the game: `white` or `black`.
    color TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    -- When the game ended (ms since the Unix epoch).
    at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_by_user ON rating_history (user_id, variant, at);
