-- Accounts (`crates/web/src/accounts/`): users with an Argon2id password
-- hash, server-side sessions, and which browsers (the `sb_player` cookie's
-- hash, as in the games' seat columns) belong to which user.
CREATE TABLE users (
    -- The name lower-cased: names are unique without regard to case.
    id TEXT PRIMARY KEY NOT NULL,
    -- The name as typed at sign-up.
    name TEXT NOT NULL,
    -- PHC string, $argon2id$v=19$...
    password_hash TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

-- A signed-in browser: only the SHA-256 (hex) of the `sb_session` cookie's
-- token is stored. Deleting the row signs the browser out.
CREATE TABLE sessions (
    id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_seen BIGINT NOT NULL,
    user_agent TEXT
);

CREATE INDEX sessions_by_user ON sessions (user_id);

-- The browsers of a user: the games whose seat hash is one of a user's
-- `player` hashes are the user's games. A browser belongs to one user
-- (the first that signed in on it).
CREATE TABLE player_users (
    player TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    linked_at BIGINT NOT NULL
);

CREATE INDEX player_users_by_user ON player_users (user_id);
