//! Relay: a small game written for the host's tests, to prove the step model on every store
//! and door. It is no one's rulebook; every rule below is this project's own.
//!
//! Two runners, `RED` and `BLU`, carry a baton in turn: a game-turn is two steps, `RED`'s
//! leg and then `BLU`'s, and each step waits for the one runner whose leg it is. A runner's sheet
//! says how far they run (`RUN n`, 1 to 5); the first to have run 12 wins, and the game
//! ends after four game-turns whatever the distances. A sheet may carry a `NOTE` line,
//! which the runner's next report repeats. The crowd, `GRN`, never runs: it sends a standing
//! sheet (`CHEER RED` or `CHEER BLU`), in force until it sends another, and the runner it
//! cheers runs one further on each of their legs. A game's turns may be paid for: a game-turn is
//! charged once, at its first leg.
//!
//! A runner may `ASK` the GM for something the rules do not cover; the next leg then needs the
//! GM's rulings, a sheet of `GRANT RUNNER n` (n further on that runner's next leg, 1 to 3) or
//! `DENY RUNNER` lines, shown in every report. A leg played without them records the GM's
//! silence, and the request lapses. Each runner's report says when their last sheet arrived.
//!
//! When the first game-turn is over the crowd splits in two: the far stand, `YEL`, leaves
//! `GRN` and cheers on its own, a seat of its own held by the crowd's player.

use empires_host::ruleset::{
    Checked, Diagnostic, Error, Finished, GameOption, GameText, NewGameForm, Orders, Result,
    Ruleset, Seat, Setup, Severity, SheetHeader, Started, Step, Turn, Upcoming, Written,
};
use serde::{Deserialize, Serialize};

/// The ruleset.
pub struct Relay;

/// The two runners, in the order they run.
pub const RUNNERS: [&str; 2] = ["RED", "BLU"];

/// The crowd: a seat no step expects, that sends standing sheets.
pub const CROWD: &str = "GRN";

/// The far stand, which splits from the crowd when the first game-turn is over.
pub const STAND: &str = "YEL";

/// The steps after which the crowd has split.
const SPLIT_AFTER: u32 = 2;

/// The seats that may send standing sheets, when `steps` have been played.
fn crowds(steps: u32) -> Vec<String> {
    let mut seats = vec![CROWD.to_string()];
    if steps >= SPLIT_AFTER {
        seats.push(STAND.to_string());
    }
    seats
}

/// The distance that wins, unless the GM's option `finish` says another.
pub const FINISH: u32 = 12;

fn default_finish() -> u32 {
    FINISH
}

/// The game-turns a game lasts at most.
pub const GAME_TURNS: u32 = 4;

/// What a game of Relay keeps.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
struct State {
    /// Steps played.
    step: u32,
    /// Each runner's distance, in the order of [`RUNNERS`].
    run: [u32; 2],
    /// The winner, once there is one; `-` for a game that ran out of legs.
    winner: Option<String>,
    /// Each runner's last note.
    notes: [String; 2],
    /// The requests to the GM not yet answered, as (runner, what they ask).
    #[serde(default)]
    asks: Vec<(String, String)>,
    /// Distances the GM granted, run on each runner's next leg.
    #[serde(default)]
    granted: [u32; 2],
    /// When each runner's last sheet arrived, in milliseconds since 1970.
    #[serde(default)]
    arrived: [Option<i64>; 2],
    /// The distance that wins (the option `finish`).
    #[serde(default = "default_finish")]
    finish: u32,
    /// The crowd cheers in the open: its standing sheets are every seat's to read (the
    /// option `open_cheers`).
    #[serde(default)]
    open_cheers: bool,
}

impl Default for State {
    fn default() -> State {
        State {
            step: 0,
            run: [0; 2],
            winner: None,
            notes: Default::default(),
            asks: Vec::new(),
            granted: [0; 2],
            arrived: [None; 2],
            finish: FINISH,
            open_cheers: false,
        }
    }
}

fn state_of(text: &str) -> Result<State> {
    serde_json::from_str(text).map_err(|e| Error::corrupt(format!("state.json: {e}")))
}

fn state_text(state: &State) -> String {
    serde_json::to_string_pretty(state).unwrap_or_default() + "\n"
}

fn index_of(seat: &str) -> Option<usize> {
    RUNNERS.iter().position(|r| *r == seat)
}

/// The runner whose leg step `step` (counted from 1) is.
fn runner_of(step: u32) -> &'static str {
    RUNNERS[((step + 1) % 2) as usize]
}

/// How people name step `step`: its game-turn and whose leg it is.
fn label(step: u32) -> String {
    format!(
        "game-turn {}, leg {} of 2: {} runs",
        step.div_ceil(2),
        (step + 1) % 2 + 1,
        runner_of(step)
    )
}

/// What a sheet says: the distance, the note, and (the crowd's) whom it cheers.
struct Sheet {
    run: Option<u32>,
    note: Option<String>,
    cheer: Option<String>,
    ask: Option<String>,
    diagnostics: Vec<Diagnostic>,
}

/// A mistake on line `line` of a sheet.
fn problem(line: usize, code: &str, message: String, expected: &str) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        line: line as u32,
        column: 1,
        code: code.to_string(),
        message,
        expected: Some(expected.to_string()),
        suggestions: Vec::new(),
        note: None,
    }
}

/// The GM's rulings: each runner's grant (0 for a denial), and the mistakes.
fn read_rulings(text: &str) -> (Vec<(usize, u32)>, Vec<Diagnostic>) {
    let (mut grants, mut mistakes) = (Vec::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        let words: Vec<String> = line
            .split_whitespace()
            .map(|w| w.to_ascii_uppercase())
            .collect();
        let runner = words.get(1).and_then(|r| index_of(r));
        match (words.first().map(String::as_str), runner, words.get(2)) {
            (None, ..) => {}
            (Some(w), ..) if w.starts_with('#') => {}
            (Some("DENY"), Some(r), None) => grants.push((r, 0)),
            (Some("GRANT"), Some(r), Some(n)) => match n.parse::<u32>() {
                Ok(n @ 1..=3) => grants.push((r, n)),
                _ => mistakes.push(problem(
                    i + 1,
                    "grant",
                    format!("line {}: \"{line}\" grants no distance of 1 to 3", i + 1),
                    "GRANT RED 1 to GRANT RED 3",
                )),
            },
            _ => mistakes.push(problem(
                i + 1,
                "ruling",
                format!("line {}: \"{line}\" is not a ruling of Relay", i + 1),
                "GRANT RUNNER n or DENY RUNNER",
            )),
        }
    }
    (grants, mistakes)
}

fn read_sheet(sheet: &str) -> Sheet {
    let mut out = Sheet {
        run: None,
        note: None,
        cheer: None,
        ask: None,
        diagnostics: Vec::new(),
    };
    for (i, line) in sheet.lines().enumerate() {
        let line_no = i + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        let problem =
            |code: &str, message: String, expected: &str| problem(line_no, code, message, expected);
        match words.first().map(|w| w.to_ascii_uppercase()).as_deref() {
            None | Some("GAME") | Some("RUNNER") | Some("STEP") => {}
            Some(w) if w.starts_with('#') => {}
            // A blank distance, as the printed sheet leaves it, stands still.
            Some("RUN") if words.len() == 1 => {}
            Some("RUN") => match words.get(1).and_then(|n| n.parse::<u32>().ok()) {
                Some(n @ 1..=5) => out.run = Some(n),
                _ => out.diagnostics.push(problem(
                    "distance",
                    format!("line {line_no}: \"{line}\" is not a distance of 1 to 5"),
                    "RUN 1 to RUN 5",
                )),
            },
            Some("NOTE") => out.note = Some(words[1..].join(" ")),
            Some("ASK") if words.len() > 1 => out.ask = Some(words[1..].join(" ")),
            Some("CHEER") if words.len() == 1 => {}
            Some("CHEER") => match words.get(1).map(|w| w.to_ascii_uppercase()) {
                Some(r) if index_of(&r).is_some() => out.cheer = Some(r),
                _ => out.diagnostics.push(problem(
                    "runner",
                    format!("line {line_no}: \"{line}\" cheers no runner"),
                    "CHEER RED or CHEER BLU",
                )),
            },
            Some(_) => out.diagnostics.push(problem(
                "unknown",
                format!("line {line_no}: \"{line}\" is not an order of Relay"),
                "RUN n or NOTE text",
            )),
        }
    }
    out
}

impl Relay {
    fn step_of(state: &State) -> Step {
        let next = state.step + 1;
        let runner = runner_of(next);
        let other = RUNNERS
            .iter()
            .find(|r| **r != runner)
            .copied()
            .unwrap_or("BLU");
        let needs_gm = (!state.asks.is_empty()).then(|| {
            state
                .asks
                .iter()
                .map(|(r, what)| format!("{r} asks \"{what}\""))
                .collect::<Vec<_>>()
                .join("; ")
        });
        Step {
            label: label(next),
            expected: Some(vec![runner.to_string()]),
            next_expected: vec![Upcoming::new(other, next + 1, label(next + 1))],
            standing: crowds(state.step),
            needs_gm,
            standing_public: state.open_cheers,
            allowance: Some(24 * 60 * 60 * 1000),
            begins_game_turn: next % 2 == 1,
        }
    }
}

impl Ruleset for Relay {
    fn id(&self) -> &'static str {
        "relay"
    }

    fn title(&self) -> &'static str {
        "Relay"
    }

    fn missed_turn(&self) -> &'static str {
        "a runner who sends nothing stands still for the leg."
    }

    fn new_game_form(&self) -> NewGameForm {
        NewGameForm {
            options: vec![
                GameOption {
                    id: "finish",
                    label: format!("The distance that wins, 5 to 30 (blank: {FINISH})"),
                    default: FINISH.to_string(),
                },
                GameOption {
                    id: "open_cheers",
                    label: "Every seat reads the crowd's cheers: yes or no (blank: no)".to_string(),
                    default: "no".to_string(),
                },
            ],
            seats_hint: "a runner's code, RED".to_string(),
            ..NewGameForm::default()
        }
    }

    fn create(&self, setup: &Setup) -> Result<Started> {
        let finish = match setup.options.get("finish").map(|v| v.trim()) {
            None | Some("") => FINISH,
            Some(v) => match v.parse::<u32>() {
                Ok(n @ 5..=30) => n,
                _ => {
                    return Err(Error::new(format!(
                        "option finish: \"{v}\" is not a distance of 5 to 30"
                    )));
                }
            },
        };
        let open_cheers = match setup.options.get("open_cheers").map(|v| v.trim()) {
            None | Some("") | Some("no") => false,
            Some("yes") => true,
            Some(v) => {
                return Err(Error::new(format!(
                    "option open_cheers: \"{v}\" is neither yes nor no"
                )));
            }
        };
        let state = State {
            finish,
            open_cheers,
            ..State::default()
        };
        let reports = RUNNERS
            .iter()
            .chain([&CROWD])
            .map(|r| Written::for_seat(r, format!("{r}.txt"), format!("Relay: you are {r}.\n")))
            .collect();
        Ok(Started {
            map: "relay\n".to_string(),
            state: state_text(&state),
            reports,
            ..Started::default()
        })
    }

    fn seats(&self, game: GameText) -> Result<Vec<Seat>> {
        let state = state_of(game.state)?;
        let alive = state.winner.is_none();
        let mut seats: Vec<Seat> = RUNNERS
            .iter()
            .map(|r| Seat::new(*r, format!("Runner {r}"), alive))
            .collect();
        seats.push(Seat::new(CROWD, "The crowd", alive));
        if state.step >= SPLIT_AFTER {
            seats.push(Seat {
                split_from: Some(CROWD.to_string()),
                ..Seat::new(STAND, "The far stand", alive)
            });
        }
        Ok(seats)
    }

    fn next_turn(&self, game: GameText) -> Result<u32> {
        Ok(state_of(game.state)?.step + 1)
    }

    fn step(&self, game: GameText) -> Result<Step> {
        Ok(Relay::step_of(&state_of(game.state)?))
    }

    fn sheet(&self, game: GameText, seat: &str) -> Result<String> {
        let state = state_of(game.state)?;
        if crowds(state.step).iter().any(|c| c == seat) {
            return Ok(format!(
                "GAME {}\nRUNNER {seat}\n# The crowd cheers one runner, until it cheers another:\nCHEER \n",
                game.name
            ));
        }
        let i = index_of(seat).ok_or_else(|| Error::not_found(format!("no runner {seat}")))?;
        Ok(format!(
            "GAME {}\nRUNNER {seat}\n# You have run {} of {}. RUN 1 to 5:\nRUN \n",
            game.name, state.run[i], state.finish
        ))
    }

    fn check(&self, _game: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        if seat != CROWD && seat != STAND {
            index_of(seat).ok_or_else(|| Error::not_found(format!("{file}: no runner {seat}")))?;
        }
        let read = read_sheet(sheet);
        let text = read
            .diagnostics
            .iter()
            .map(|d| format!("{file}: {}\n", d.message))
            .collect::<String>();
        Ok(Checked::of_text(read.diagnostics.len(), 0, text))
    }

    fn play(&self, game: GameText, orders: Orders) -> Result<Turn> {
        let mut state = state_of(game.state)?;
        if state.winner.is_some() {
            return Err(Error::new("the race is over"));
        }
        let step = state.step + 1;
        let runner = runner_of(step);
        let i = index_of(runner).unwrap_or(0);
        // Only the runner whose leg it is moves; any other sheet handed in is not read.
        let sheet = orders.sheets.iter().find(|(s, _)| s == runner);
        let read = sheet.map(|(_, text)| read_sheet(text));
        if let Some((_, at)) = orders.arrived.iter().find(|(s, _)| s == runner) {
            state.arrived[i] = Some(*at);
        }
        // The GM's rulings answer the requests made; without them the requests lapse, and
        // the GM's silence is said.
        let mut ruled = String::new();
        match orders.rulings {
            Some(text) => {
                for (r, n) in read_rulings(text).0 {
                    state.granted[r] += n;
                    ruled.push_str(&match n {
                        0 => format!("The GM rules: {} is denied.\n", RUNNERS[r]),
                        n => format!("The GM rules: {} is granted {n}.\n", RUNNERS[r]),
                    });
                }
            }
            None if !state.asks.is_empty() => {
                ruled.push_str("The GM was silent: the requests lapse.\n");
            }
            None => {}
        }
        state.asks.clear();
        if let Some(ask) = read.as_ref().and_then(|r| r.ask.clone()) {
            state.asks.push((runner.to_string(), ask));
        }
        let granted = std::mem::take(&mut state.granted[i]);
        // Each crowd's standing sheet, in force until it sends another, carries its runner.
        let cheer = orders
            .standing
            .iter()
            .filter(|(s, _)| crowds(state.step).contains(s))
            .filter(|(_, text)| read_sheet(text).cheer.as_deref() == Some(runner))
            .count() as u32;
        let ran = read.as_ref().and_then(|r| r.run).unwrap_or(0) + cheer + granted;
        state.run[i] += ran;
        if let Some(note) = read.as_ref().and_then(|r| r.note.clone()) {
            state.notes[i] = note;
        }
        state.step = step;
        if state.run[i] >= state.finish {
            state.winner = Some(runner.to_string());
        } else if step >= GAME_TURNS * 2 {
            state.winner = Some("-".to_string());
        }
        let finished = state.winner.as_ref().map(|w| Finished {
            summary: if w == "-" {
                format!("the race ended after {GAME_TURNS} game-turns with no winner")
            } else {
                format!("runner {w} won at step {step}")
            },
            results: RUNNERS
                .iter()
                .map(|r| {
                    (
                        r.to_string(),
                        if r == w { "won" } else { "ran" }.to_string(),
                    )
                })
                .collect(),
        });
        let gm = orders
            .gm
            .map(|g| format!("The GM says: {g}\n"))
            .unwrap_or_default()
            + &ruled;
        // Each crowd reads the race; once split, the far stand has its own report.
        let crowd: Vec<Written> = crowds(state.step)
            .into_iter()
            .map(|c| {
                let text = format!(
                    "Relay, {}\n{gm}{runner} ran {ran}. The runners have run {} and {}.\n",
                    label(step),
                    state.run[0],
                    state.run[1]
                );
                Written::for_seat(&c, format!("{c}.txt"), text)
            })
            .collect();
        let reports = RUNNERS
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let arrived = state.arrived[k]
                    .map(|at| format!("Your last sheet arrived at {at}.\n"))
                    .unwrap_or_default();
                let text = format!(
                    "Relay, {}\n{gm}{runner} ran {ran}.\nYou have run {} of {}; the other runner {}.\nYour note: {}\n{arrived}",
                    label(step),
                    state.run[k],
                    state.finish,
                    state.run[1 - k],
                    state.notes[k]
                );
                Written::for_seat(r, format!("{r}.txt"), text)
            })
            .chain(crowd)
            .collect();
        Ok(Turn {
            turn: step,
            state: state_text(&state),
            events: format!("[{{\"runner\": \"{runner}\", \"ran\": {ran}}}]\n"),
            reports,
            seats: self.seats(GameText {
                state: &state_text(&state),
                ..game
            })?,
            computer_orders: Vec::new(),
            computer_played: Vec::new(),
            events_count: 1,
            failed: 0,
            ignored: 0,
            finished,
            news: Vec::new(),
            notes: Vec::new(),
            kept: None,
            next: Some(Relay::step_of(&state)),
            fees: Vec::new(),
        })
    }

    fn rulings_help(&self) -> &'static str {
        "One a line: GRANT RED 1 to GRANT RED 3, or DENY RED"
    }

    fn check_rulings(&self, _game: GameText, file: &str, rulings: &str) -> Result<Checked> {
        let (_, mistakes) = read_rulings(rulings);
        let text = mistakes
            .iter()
            .map(|d| format!("{file}: {}\n", d.message))
            .collect::<String>();
        Ok(Checked::of_text(mistakes.len(), 0, text))
    }

    fn arrival_times(&self) -> bool {
        true
    }

    // A runner's report is a few lines of text.
    fn report_formats(&self) -> &'static [&'static str] {
        &["txt"]
    }

    fn header(&self, sheet: &str) -> SheetHeader {
        let find = |key: &str| {
            sheet.lines().find_map(|l| {
                let mut w = l.split_whitespace();
                (w.next()?.eq_ignore_ascii_case(key)).then(|| w.collect::<Vec<_>>().join(" "))
            })
        };
        SheetHeader {
            game: find("GAME"),
            seat: find("RUNNER"),
            turn: find("STEP"),
        }
    }

    // A race's legs may be paid for, a game-turn at a time, to prove the ledger charges
    // game-turns, not steps.
    fn paid_turns(&self) -> bool {
        true
    }

    fn finished(&self, game: GameText) -> Result<Option<String>> {
        Ok(state_of(game.state)?.winner.map(|w| {
            if w == "-" {
                "the race is over".to_string()
            } else {
                format!("runner {w} won the race")
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legs_alternate_and_each_game_turn_begins_with_a() {
        assert_eq!(runner_of(1), "RED");
        assert_eq!(runner_of(2), "BLU");
        assert_eq!(runner_of(3), "RED");
        assert_eq!(label(4), "game-turn 2, leg 2 of 2: BLU runs");
        let step = Relay::step_of(&State::default());
        assert_eq!(step.expected, Some(vec!["RED".to_string()]));
        assert!(step.begins_game_turn);
        assert_eq!(step.next_expected, vec![Upcoming::new("BLU", 2, label(2))]);
    }

    #[test]
    fn a_distance_outside_one_to_five_is_named_by_its_line() {
        let read = read_sheet("RUNNER RED\nRUN 9\n");
        assert_eq!(read.run, None);
        assert_eq!(read.diagnostics[0].line, 2);
    }
}
