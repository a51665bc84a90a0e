-- The ruleset a game is played under: 'empires', or another game the host runs
-- ('napoleonic'). A game of another ruleset keeps its map and state as the ruleset writes
-- them; its seats are the ruleset's (a kingdom's code in `seats.empire`), and what the
-- ruleset keeps with the game (the map's drawing) is in `map_script`.
ALTER TABLE games ADD COLUMN ruleset TEXT NOT NULL DEFAULT 'empires';
