//! Whole games played by the computer: every empire without orders gets the routine
//! decision 21 gives it; in a simulation nobody sends orders, so every empire is a dummy.

use crate::plan::{read_as_computer, write_orders};
use crate::style_for;
use crate::view::{Survey, View};
use empires_rules::order::Turnsheet;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::state::{GameState, VictoryClaim};
use empires_rules::{EmpireCode, Map, Options, TurnError, TurnOutcome, Variant, adjudicate};
use std::collections::BTreeMap;

/// Fills in computer turnsheets for every surviving empire that sent none (2.5, 2.1).
pub fn complete_orders(
    map: &Map,
    state: &GameState,
    sent: &BTreeMap<EmpireCode, Turnsheet>,
) -> BTreeMap<EmpireCode, Turnsheet> {
    let mut all = sent.clone();
    let survey = Survey::new(map, state);
    for e in state.empires.iter().filter(|e| e.alive()) {
        if let Some(style) = style_for(e, &state.options, sent.contains_key(&e.code)) {
            let held = survey.of(e.code).expect("the empire is in the game");
            let text = write_orders(&View::new(map, state, e.code, held), style);
            all.insert(e.code, read_as_computer(&text));
        }
    }
    all
}

/// Plays one turn with computer orders for everyone.
pub fn computer_turn(map: &Map, state: &GameState) -> Result<TurnOutcome, TurnError> {
    adjudicate(map, state, &complete_orders(map, state, &BTreeMap::new()))
}

/// How a simulated game ended.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub state: GameState,
    /// `None` when the turn limit came first.
    pub winner: Option<VictoryClaim>,
    pub turns: u32,
}

/// Plays a whole game of computer players from the start, until someone wins or `max_turns`
/// have been played. `each_turn` sees every turn as it is played.
pub fn play_game(
    map: &Map,
    variant: Variant,
    seed: u64,
    max_turns: u32,
    mut each_turn: impl FnMut(&TurnOutcome),
) -> Result<GameResult, TurnError> {
    let start = new_game(
        map,
        &NewGame {
            name: map.name.clone(),
            variant,
            seed,
            players: BTreeMap::new(),
            options: Options::default(),
        },
    )
    .map_err(|e| TurnError::StateMismatch(e.to_string()))?;
    let mut state = start;
    while state.result.is_none() && state.turn < max_turns {
        let out = computer_turn(map, &state)?;
        each_turn(&out);
        state = out.state;
    }
    Ok(GameResult {
        winner: state.result.clone(),
        turns: state.turn,
        state,
    })
}
