-- Correspondence play (`crates/web/src/store/corr.rs`). A correspondence
-- game keeps its times in the clock's columns (in ms); this column says
-- which time control it is: `days:N` (N days per move) or `bank:X+Y` (a
-- bank of X days, Y days added per move). NULL: a live clock or none, as
-- every game stored before this migration.
ALTER TABLE games ADD COLUMN correspondence TEXT;
-- The players' conditional moves, JSON `{"white": [[...]], "black":
-- [[...]]}` (lines of long-notation moves); NULL when nobody has any.
ALTER TABLE games ADD COLUMN conditionals TEXT;
-- The lobby's challenges of a correspondence game, in the same text.
ALTER TABLE challenges ADD COLUMN correspondence TEXT;
