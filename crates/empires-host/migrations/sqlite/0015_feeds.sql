-- The SHA-256 of an account's secret for its calendar and news feeds (the URLs a calendar
-- or a feed reader fetches without logging in); none until the player asks for them, and
-- cleared with every new password, which revokes the URLs.
ALTER TABLE accounts ADD COLUMN feed_sha256 TEXT;
CREATE UNIQUE INDEX accounts_feed_sha256 ON accounts (feed_sha256);
