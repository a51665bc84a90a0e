-- The map's layer for the report pages (`map.js`), worked out once per game; NULL until
-- it is, and worked out again when it was drawn from another map or drawing version.
ALTER TABLE games ADD COLUMN map_script BYTEA;

-- An empire's latest turnsheet for a turn, found at once however many it sent before
-- (the receipt says which one a new sheet replaces).
CREATE INDEX submissions_latest ON submissions (game_id, empire, for_turn, id);

-- Turn files are stored as they are, not compressed: a turn's two megabytes of reports are
-- written far more often than they are read, and compressing them was most of a commit.
ALTER TABLE turn_files ALTER COLUMN body SET STORAGE EXTERNAL;
ALTER TABLE games ALTER COLUMN map_script SET STORAGE EXTERNAL;
