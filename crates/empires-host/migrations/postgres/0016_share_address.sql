-- Whether a player lets the rulers they send an ambassador to (Napoleonic Empires' Send
-- Ambassador, the rulebook's exchange of addresses) see their confirmed mail address. Off
-- until the player turns it on.
ALTER TABLE accounts ADD COLUMN share_address BIGINT NOT NULL DEFAULT 0;
