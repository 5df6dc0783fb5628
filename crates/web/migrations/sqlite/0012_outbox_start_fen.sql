-- The emails not sent yet (`crates/web/src/notify/mail.rs`): a message is
-- written here before it is sent and deleted once the SMTP server took
-- it, so that one queued when the process stopped (even by `kill -9`) or
-- while the SMTP server was out of reach is sent later.
CREATE TABLE notify_outbox (
    id TEXT PRIMARY KEY NOT NULL,
    -- The account it is for (the log names it, never the address).
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- When a process took it to send (ms); NULL while it waits.
    claimed_at BIGINT,
    -- The rounds of tries that failed.
    attempts BIGINT NOT NULL
);

CREATE INDEX notify_outbox_by_age ON notify_outbox (created_at);

-- A challenge from a position (the lichess-compatible API's `fen`): the
-- new game's start position, checked by the rules core when posted; NULL
-- for the game's usual start.
ALTER TABLE challenges ADD COLUMN start_fen TEXT;
