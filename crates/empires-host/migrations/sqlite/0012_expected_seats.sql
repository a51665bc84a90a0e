-- Which seats the game's next step waits for (a game played in steps expects some of its
-- seats at a time): the clock's early run and the reminders count only these.
ALTER TABLE seats ADD COLUMN expected INTEGER NOT NULL DEFAULT 1;
