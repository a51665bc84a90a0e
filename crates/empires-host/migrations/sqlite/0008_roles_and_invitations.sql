-- Who may act on an account. The host administrator is a GM with `admin` set: on a host
-- that had GMs before, the first of them. A GM's hold on an account it made for one of its
-- games (`managed_by`, `managed_game`) lasts until the account's owner first sets their own
-- password; an account that exists already is invited to a seat, never given one. What is
-- done to an account is written in its own log, which its owner and the administrator read.
ALTER TABLE accounts ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
ALTER TABLE accounts ADD COLUMN managed_by INTEGER REFERENCES accounts (id);
ALTER TABLE accounts ADD COLUMN managed_game INTEGER REFERENCES games (id);
-- 1 once the owner has shown the address is theirs; addresses on record before stay valid.
ALTER TABLE accounts ADD COLUMN email_verified INTEGER NOT NULL DEFAULT 0;
UPDATE accounts SET email_verified = 1 WHERE email IS NOT NULL;
UPDATE accounts SET admin = 1 WHERE id = (SELECT MIN(id) FROM accounts WHERE role = 'gm');

CREATE TABLE seat_invitations (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat TEXT NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    invited_by INTEGER REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    answered_at INTEGER,
    -- accepted, declined, or withdrawn (the seat was given otherwise meanwhile)
    answer TEXT
) STRICT;
CREATE INDEX seat_invitations_account ON seat_invitations (account_id, answered_at);

CREATE TABLE account_log (
    id INTEGER PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    at INTEGER NOT NULL,
    -- Who did it: the account itself, a GM, the administrator; NULL for the command line.
    actor_id INTEGER REFERENCES accounts (id),
    game_id INTEGER REFERENCES games (id),
    action TEXT NOT NULL,
    detail TEXT NOT NULL
) STRICT;
CREATE INDEX account_log_account ON account_log (account_id, id);

-- When the game was won (Empires 11.7), or NULL while it goes on: a game over takes no
-- more sheets or messages, at any door.
ALTER TABLE games ADD COLUMN finished_at INTEGER;

-- A link mailed to a new or changed address: opening it shows the address is the
-- account's. Kept as the SHA-256 of its secret, as every link is.
CREATE TABLE email_verifications (
    token_sha256 TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at INTEGER
) STRICT;
