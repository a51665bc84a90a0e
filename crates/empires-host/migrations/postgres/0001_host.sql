-- The host's games, kept in one PostgreSQL database. Times are milliseconds since 1970 (UTC), given
-- by the host's clock, never by the database's.

CREATE TABLE accounts (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    email TEXT,
    role TEXT NOT NULL CHECK (role IN ('player', 'gm')),
    password_hash TEXT,
    mail_password_hash TEXT,
    created_at BIGINT NOT NULL
);

CREATE TABLE games (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    map_toml BYTEA NOT NULL,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,
    options TEXT NOT NULL,
    turn BIGINT NOT NULL,
    -- Bumped by every turn run as its first statement, so that the run holds the game's
    -- write lock from its start to its commit.
    claims BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE seats (
    game_id BIGINT NOT NULL REFERENCES games (id),
    empire TEXT NOT NULL,
    account_id BIGINT REFERENCES accounts (id),
    player TEXT,
    status TEXT NOT NULL,
    missed_turns BIGINT NOT NULL DEFAULT 0,
    replaced_at_turn BIGINT,
    PRIMARY KEY (game_id, empire)
);

CREATE TABLE submissions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    empire TEXT NOT NULL,
    for_turn BIGINT NOT NULL,
    body BYTEA NOT NULL,
    sha256 TEXT NOT NULL,
    received_at BIGINT NOT NULL,
    door TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('accepted', 'late')),
    account_id BIGINT REFERENCES accounts (id),
    consumed_turn BIGINT
);
CREATE INDEX submissions_pending ON submissions (game_id, for_turn, consumed_turn);

CREATE TABLE gm_messages (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id),
    for_turn BIGINT NOT NULL,
    body BYTEA NOT NULL,
    written_at BIGINT NOT NULL,
    account_id BIGINT REFERENCES accounts (id),
    consumed_turn BIGINT
);

CREATE TABLE turns (
    game_id BIGINT NOT NULL REFERENCES games (id),
    turn BIGINT NOT NULL,
    state_sha256 TEXT NOT NULL,
    rules_version TEXT,
    engine_version TEXT NOT NULL,
    played_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, turn)
);

-- Every file of a turn, as a game directory holds it (state.json, events.json, turn.json,
-- orders/, reports/), byte for byte, with who may read it: 'gm', 'all' or an empire's code.
CREATE TABLE turn_files (
    game_id BIGINT NOT NULL,
    turn BIGINT NOT NULL,
    path TEXT NOT NULL,
    reader TEXT NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (game_id, turn, path),
    FOREIGN KEY (game_id, turn) REFERENCES turns (game_id, turn)
);

CREATE TABLE audit_log (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT REFERENCES games (id),
    account_id BIGINT REFERENCES accounts (id),
    at BIGINT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
);
