-- What the web door keeps: which GM runs each game, log-in sessions, API tokens and the
-- one-time links a GM hands out (an invitation to a seat, a password reset). Secrets are
-- kept only as their SHA-256: a copy of the database lets no one in.

-- The GM account that runs a game; NULL for a game made at the command line, until a host
-- gives it to a GM.
ALTER TABLE games ADD COLUMN gm_account_id INTEGER REFERENCES accounts (id);

CREATE TABLE sessions (
    token_sha256 TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    -- The token every form of the session carries back (CSRF); not a secret from its owner.
    csrf TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    label TEXT NOT NULL,
    token_sha256 TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
) STRICT;

CREATE TABLE links (
    token_sha256 TEXT PRIMARY KEY,
    purpose TEXT NOT NULL CHECK (purpose IN ('invite', 'reset')),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_by INTEGER REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
) STRICT;
