-- Turn credits and prize discounts (2.10, 11.7): every player's ledger, one row per entry
-- (the JSON of `empires_host::ledger::Entry`), replayed in order to give where the player
-- stands in each game.
CREATE TABLE ledger (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    at BIGINT NOT NULL,
    entry TEXT NOT NULL
);
CREATE INDEX ledger_account ON ledger (account_id, id);

-- 1 when the game's turns are paid for: each turn played charges a credit to every seat's
-- player, and a report not paid for is held back on every door (2.10).
ALTER TABLE games ADD COLUMN paid_turns BIGINT NOT NULL DEFAULT 0;

-- The host's settings kept as text by name: `discount_table`, the JSON of the GM's table
-- of prize discounts (11.7 unless set).
CREATE TABLE host_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
