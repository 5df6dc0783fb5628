-- Personal API tokens (`crates/web/src/lichess/`): the lichess-compatible
-- API's `Authorization: Bearer` tokens. Only the SHA-256 (hex) of a token
-- is stored; deleting the row revokes it.
CREATE TABLE api_tokens (
    -- The token's public id (listing and revoking it on the account page).
    id TEXT PRIMARY KEY NOT NULL,
    -- SHA-256 (hex) of the token.
    hash TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The seat (a `player_users` player hash of the same user) of the
    -- games the token's requests take.
    seat TEXT NOT NULL,
    -- What the owner called it.
    description TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- When a request last used it (ms), NULL if never.
    last_used BIGINT
);

CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
