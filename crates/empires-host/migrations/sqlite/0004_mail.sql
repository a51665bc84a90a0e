-- What the mail door keeps: whether a player wants their reports by email, the messages it
-- has answered (so a message delivered twice is answered once), what it did with each
-- message (for the GM), and the outbox of mail waiting to be sent.

-- 1 when the account's reports are to be sent to its address after every turn.
ALTER TABLE accounts ADD COLUMN mail_reports INTEGER NOT NULL DEFAULT 0;

-- Every message the door has taken in, by its Message-ID (or the SHA-256 of its bytes when
-- it has none): a second delivery of the same message is recognised and not answered.
CREATE TABLE mail_seen (
    message_key TEXT PRIMARY KEY,
    received_at INTEGER NOT NULL
) STRICT;

-- What the door did with each message in and each message out: shown to the GM of the game
-- it concerns; entries for no game (a stranger's message) are shown to every GM.
CREATE TABLE mail_log (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games (id),
    account_id INTEGER REFERENCES accounts (id),
    at INTEGER NOT NULL,
    direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
    address TEXT NOT NULL,
    outcome TEXT NOT NULL,
    detail TEXT NOT NULL
) STRICT;
CREATE INDEX mail_log_game ON mail_log (game_id, id);

-- Mail waiting to be sent, and mail sent or given up on. `message` is the whole message as
-- it goes out (RFC 5322). `dedupe` names what a message is for (a turn's report to an
-- empire), so that queueing it twice keeps one.
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games (id),
    account_id INTEGER REFERENCES accounts (id),
    kind TEXT NOT NULL,
    dedupe TEXT UNIQUE,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    message BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    sent_at INTEGER,
    failed_at INTEGER
) STRICT;
CREATE INDEX outbox_due ON outbox (sent_at, failed_at, next_attempt_at);

-- Each turn whose report mail has been queued, so that a turn's reports are queued once,
-- and a turn played while the mail door was down is caught up when it comes back.
CREATE TABLE mail_turns (
    game_id INTEGER NOT NULL REFERENCES games (id),
    turn INTEGER NOT NULL,
    queued_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, turn)
) STRICT;
