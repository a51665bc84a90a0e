-- Deadlines (2.4): each host game's schedule, as the GM wrote it, and the deadline of the
-- turn it waits for. A game without a row here is run by hand.
CREATE TABLE schedules (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    -- The schedule in its written form ("tuesdays 17:00 America/Los_Angeles early grace 1h").
    spec TEXT NOT NULL,
    -- Orders received up to this many milliseconds after the deadline are on time; the turn
    -- is run at deadline + grace. Kept apart from `spec` for the queries that need it.
    grace INTEGER NOT NULL DEFAULT 0,
    -- 1 to run the turn as soon as every living human player has sent orders.
    early INTEGER NOT NULL DEFAULT 0,
    -- After the host was down over several deadlines: 'each' plays one turn per deadline
    -- missed, 'skip' plays one turn and sets the next deadline after the present.
    catch_up TEXT NOT NULL DEFAULT 'each' CHECK (catch_up IN ('each', 'skip')),
    -- When to remind players who have sent nothing, before the deadline: "24h,2h".
    reminders TEXT NOT NULL DEFAULT '',
    -- The turn the deadline is for, and the deadline (NULL when the schedule is manual).
    for_turn INTEGER NOT NULL,
    deadline INTEGER,
    -- Set while the GM has paused the game: no turn is run by the clock.
    paused_at INTEGER,
    changed_at INTEGER NOT NULL
) STRICT;

-- Reminders sent, so that each goes once per turn.
CREATE TABLE reminders_sent (
    game_id INTEGER NOT NULL REFERENCES games (id),
    for_turn INTEGER NOT NULL,
    label TEXT NOT NULL,
    sent_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, for_turn, label)
) STRICT;
