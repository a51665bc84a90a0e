-- What the web door keeps: which GM runs each game, log-in sessions, API tokens and the
-- one-time links a GM hands out (an invitation to a seat, a password reset). Secrets are
-- kept only as their SHA-256: a copy of the database lets no one in.

-- The GM account that runs a game; NULL for a game made at the command line, until a host
-- gives it to a GM.
ALTER TABLE games ADD COLUMN gm_account_id BIGINT REFERENCES accounts (id);

CREATE TABLE sessions (
    token_sha256 TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    -- The token every form of the session carries back (CSRF); not a secret from its owner.
    csrf TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE api_tokens (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    label TEXT NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);

CREATE TABLE links (
    token_sha256 TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset')),
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    created_by BIGINT REFERENCES accounts (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
