-- The log-in rate limit, kept where every `serve` process on the database sees it, so that
-- several processes count together and a restart does not start the count again.

-- Log-in tries counted by key: 'name:<name>' (trimmed, lower case), 'addr:<address>' (an
-- IPv6 address by its /64), 'device:<SHA-256 of a device cookie>'. A try is counted before
-- the password is checked and given back when the password was right; a row whose window
-- has passed is dropped.
CREATE TABLE login_limits (
    limit_key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    tries INTEGER NOT NULL
) STRICT;
CREATE INDEX login_limits_window ON login_limits (window_start);

-- The browsers that have logged in to an account: the device cookie's SHA-256 (never the
-- cookie itself). A log-in from one of them is limited only by that browser's own failures,
-- so failures from elsewhere cannot shut the player out.
CREATE TABLE login_devices (
    token_sha256 TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX login_devices_account ON login_devices (account_id);
CREATE INDEX login_devices_expiry ON login_devices (expires_at);
