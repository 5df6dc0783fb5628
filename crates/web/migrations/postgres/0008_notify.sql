-- Notifications (`crates/web/src/notify/`): per account, read or unread,
-- and the email side: an account's address (confirmed by a link), which
-- kinds it gets by email, and the single-use tokens of the links (only
-- their SHA-256 is stored).
CREATE TABLE notifications (
    id TEXT PRIMARY KEY NOT NULL,
    -- The account told (lower-cased name, `users.id`).
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- `your_turn`, `challenge` or `game_ended`.
    kind TEXT NOT NULL,
    -- The game (your_turn, game_ended) or challenge (challenge) it is about.
    subject TEXT NOT NULL,
    -- A your_turn's number of moves played when it was made.
    ply BIGINT,
    -- The details the page shows, a JSON object (opponent, variant, result...).
    body TEXT NOT NULL,
    is_read BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE INDEX notifications_by_user ON notifications (user_id, created_at);
CREATE INDEX notifications_by_subject ON notifications (subject);

CREATE TABLE notify_emails (
    user_id TEXT PRIMARY KEY NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    confirmed BOOLEAN NOT NULL,
    -- The kinds sent by email, comma-separated (`your_turn,challenge`).
    kinds TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE notify_tokens (
    -- SHA-256 (hex) of the token the link carries.
    hash TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- `confirm` (the address `address`) or `unsubscribe` (the kind `kind`).
    purpose TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT,
    expires_at BIGINT NOT NULL
);

CREATE INDEX notify_tokens_by_expiry ON notify_tokens (expires_at);
