-- The host's games, kept in one SQLite file. Times are milliseconds since 1970 (UTC), given
-- by the host's clock, never by the database's.

CREATE TABLE accounts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    email TEXT,
    role TEXT NOT NULL CHECK (role IN ('player', 'gm')),
    password_hash TEXT,
    mail_password_hash TEXT,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    map_toml BLOB NOT NULL,
    variant TEXT NOT NULL,
    seed TEXT NOT NULL,
    options TEXT NOT NULL,
    turn INTEGER NOT NULL,
    -- Bumped by every turn run as its first statement, so that the run holds the game's
    -- write lock from its start to its commit.
    claims INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    empire TEXT NOT NULL,
    account_id INTEGER REFERENCES accounts (id),
    player TEXT,
    status TEXT NOT NULL,
    missed_turns INTEGER NOT NULL DEFAULT 0,
    replaced_at_turn INTEGER,
    PRIMARY KEY (game_id, empire)
) STRICT;

CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    empire TEXT NOT NULL,
    for_turn INTEGER NOT NULL,
    body BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    door TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('accepted', 'late')),
    account_id INTEGER REFERENCES accounts (id),
    consumed_turn INTEGER
) STRICT;
CREATE INDEX submissions_pending ON submissions (game_id, for_turn, consumed_turn);

CREATE TABLE gm_messages (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    for_turn INTEGER NOT NULL,
    body BLOB NOT NULL,
    written_at INTEGER NOT NULL,
    account_id INTEGER REFERENCES accounts (id),
    consumed_turn INTEGER
) STRICT;

CREATE TABLE turns (
    game_id INTEGER NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    state_sha256 TEXT NOT NULL,
    rules_version TEXT,
    engine_version TEXT NOT NULL,
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT;

-- Every file of a turn, as a game directory holds it (state.json, events.json, turn.json,
-- orders/, reports/), byte for byte, with who may read it: 'gm', 'all' or an empire's code.
CREATE TABLE turn_files (
    game_id INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    path TEXT NOT NULL,
    reader TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (game_id, turn, path),
    FOREIGN KEY (game_id, turn) REFERENCES turns (game_id, turn)
) STRICT;

CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games (id),
    account_id INTEGER REFERENCES accounts (id),
    at INTEGER NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
) STRICT;
