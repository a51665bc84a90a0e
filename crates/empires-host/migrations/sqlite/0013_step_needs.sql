-- What the game's next step needs besides its seats' sheets: the GM's rulings (and why),
-- and the time it allows from the previous play, for a schedule counted from each play.
ALTER TABLE games ADD COLUMN step_label TEXT;
ALTER TABLE games ADD COLUMN step_needs_gm TEXT;
ALTER TABLE games ADD COLUMN step_allowance INTEGER;
