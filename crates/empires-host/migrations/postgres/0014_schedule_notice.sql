-- A GM message the host wrote itself, by what it announces ('schedule' for a change of the
-- game's schedule): a newer announcement of the same kind replaces one not yet read in a
-- turn's reports, so players read one notice of the schedule, never a trail of them.
ALTER TABLE gm_messages ADD COLUMN notice TEXT;
