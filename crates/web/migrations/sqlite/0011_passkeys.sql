-- Passkeys (`crates/web/src/accounts/passkey/`): WebAuthn credentials an
-- account signs in with, and the ceremonies under way (a registration or
-- a sign-in between its start and its finish).
CREATE TABLE passkeys (
    -- The credential id, base64url without padding (unique: one
    -- credential is one account's).
    id TEXT PRIMARY KEY NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- The WebAuthn user handle (a UUID) the authenticator keeps with the
    -- credential and gives back at sign-in; one per account.
    user_handle TEXT NOT NULL,
    -- The webauthn-rs `Passkey` as JSON: the public key and its counter.
    passkey TEXT NOT NULL,
    -- What the owner called it.
    name TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- When it last signed in (ms), NULL if never.
    last_used BIGINT
);

CREATE INDEX passkeys_by_user ON passkeys (user_id);

-- A ceremony's server-side state, between its start and its finish: used
-- once (the finish deletes it), over at `expires_at`.
CREATE TABLE passkey_ceremonies (
    -- A random id, the start's answer and the finish's request carry it.
    id TEXT PRIMARY KEY NOT NULL,
    -- 'register' or 'signin'.
    kind TEXT NOT NULL,
    -- A registration's account; NULL for a sign-in.
    user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
    -- A registration's passkey name and user handle; NULL for a sign-in.
    name TEXT,
    user_handle TEXT,
    -- The webauthn-rs state (`PasskeyRegistration`,
    -- `DiscoverableAuthentication`) as JSON.
    state TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX passkey_ceremonies_by_expiry ON passkey_ceremonies (expires_at);
