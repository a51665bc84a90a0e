-- Standing sheets: each seat's latest, kept until it sends another, read by every play of a
-- game played in steps.
CREATE TABLE standing_sheets (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat TEXT NOT NULL,
    body BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
