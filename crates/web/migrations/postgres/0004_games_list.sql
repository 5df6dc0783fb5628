-- The games list (issue 45): where a game comes from, a waiting friend
-- game's invitation, a loaded PGN's tags and a finished import's key.
-- `origin`: `played` (against the engine or a friend: the public lists),
-- `analysis` (a board of one browser), `imported` (a board started from a
-- loaded FEN or PGN). Games stored before this migration: a local game is
-- `analysis`, any other `played`.
ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT 'played';
-- The token of a waiting friend game's invitation link, which joining
-- needs; null once the seat is taken.
ALTER TABLE games ADD COLUMN invite TEXT;
-- JSON array of [name, value]: the loaded PGN's Event, Site, Date, Round,
-- White and Black tags.
ALTER TABLE games ADD COLUMN tags TEXT;
-- SHA-256 (hex) of a finished loaded game: loading it again opens it.
ALTER TABLE games ADD COLUMN import_key TEXT;
UPDATE games SET origin = 'analysis' WHERE mode = 'local';
-- A friend game already waiting gets an invitation (its creator sees the
-- new link on the game page).
UPDATE games SET invite = replace(gen_random_uuid()::text, '-', '') WHERE status = 'waiting';
CREATE INDEX games_origin_updated ON games (origin, updated_at);
CREATE INDEX games_import_key ON games (import_key);
