//! Empires behind the [`Ruleset`] interface: the engine, turnsheets, reports and computer
//! players of the `empires-*` crates, through the same turn pipeline every door uses
//! ([`crate::turn::play_sheets`]).

use super::{Checked, GameText, Orders, Ruleset, Seat, Setup, SheetHeader, Started, Turn};
use crate::check::{Format, check_text};
use crate::error::{Error, Result};
use crate::gamedir::{parse_map, parse_state, to_pretty_json};
use crate::turn::{Origin, Sent, TurnOptions, play_sheets};
use empires_rules::setup::NewGame;
use empires_rules::{EmpireCode, GameState, Map, Variant};
use std::collections::BTreeMap;

pub struct Empires;

/// The map played when a setup names none: World Empires (12.1).
const DEFAULT_MAP: &str = "world";

fn game(g: GameText) -> Result<(Map, GameState)> {
    let map = parse_map(g.map, "map.toml")?;
    let state = parse_state(g.state, "state.json", &map)?;
    Ok((map, state))
}

fn empire(state: &GameState, seat: &str) -> Result<EmpireCode> {
    let code = EmpireCode::parse(seat).map_err(|e| Error::new(e.to_string()))?;
    crate::gamedir::known_empire(state, code)?;
    Ok(code)
}

fn sheet_of(state: &GameState, e: &empires_rules::state::EmpireState) -> String {
    let actions = e.actions_per_turn.unwrap_or(state.options.actions_per_turn);
    empires_report::text::blank_sheet(&state.game, state.turn + 1, e.code.as_str(), actions)
}

impl Ruleset for Empires {
    fn id(&self) -> &'static str {
        "empires"
    }

    fn title(&self) -> &'static str {
        "Empires"
    }

    fn missed_turn(&self) -> &'static str {
        "The computer writes the orders of every empire that sent none (2.5)."
    }

    fn create(&self, setup: &Setup) -> Result<Started> {
        let text = match &setup.map {
            Some(t) => t.clone(),
            None => empires_maps::standard::find(DEFAULT_MAP)
                .map(|s| s.text.to_string())
                .ok_or_else(|| Error::new("the World Empires map is missing from this build"))?,
        };
        let map = parse_map(&text, "map.toml")?;
        let mut players = BTreeMap::new();
        for seat in &setup.seats {
            let code = EmpireCode::parse(seat).map_err(|e| Error::new(e.to_string()))?;
            players.insert(code, seat.clone());
        }
        let new = NewGame {
            name: setup.name.clone(),
            variant: map.variant.unwrap_or(Variant::World),
            seed: setup.seed,
            players,
            options: Default::default(),
        };
        let state = crate::create::start(&map, "map.toml", &new)?;
        Ok(Started {
            map: text,
            state: to_pretty_json(&state, "state.json")?,
            kept: None,
        })
    }

    fn seats(&self, g: GameText) -> Result<Vec<Seat>> {
        let (_, state) = game(g)?;
        Ok(state
            .empires
            .iter()
            .map(|e| Seat {
                code: e.code.to_string(),
                name: e.name.clone(),
                alive: e.eliminated.is_none(),
            })
            .collect())
    }

    fn next_turn(&self, g: GameText) -> Result<u32> {
        Ok(game(g)?.1.turn + 1)
    }

    fn sheet(&self, g: GameText, seat: &str) -> Result<String> {
        let (_, state) = game(g)?;
        let code = empire(&state, seat)?;
        let e = state
            .empire(code)
            .ok_or_else(|| Error::new(format!("no empire {code} in this game")))?;
        Ok(sheet_of(&state, e))
    }

    fn check(&self, g: GameText, seat: &str, file: &str, sheet: &str) -> Result<Checked> {
        let (map, state) = game(g)?;
        let code = empire(&state, seat)?;
        let report = check_text(&map, &state, code, sheet.to_string(), file, Format::Text)?;
        Ok(Checked {
            errors: report.errors,
            warnings: report.warnings,
            text: report.to_string(),
        })
    }

    // Empires knows its dummies from its own state (2.5): the computer plays every empire
    // that sent nothing, so `stand_ins` adds nothing.
    fn play(&self, g: GameText, orders: Orders) -> Result<Turn> {
        let (map, state) = game(g)?;
        let mut sent = Vec::new();
        let mut notes = Vec::new();
        if let Some(gm) = orders.gm {
            // 10.6: the GM's messages, printed in every report.
            sent.push(Sent {
                name: crate::gamedir::GM_MESSAGES_FILE.to_string(),
                empire: None,
                text: Ok(gm.to_string()),
            });
        }
        for (seat, text) in orders.sheets {
            match empire(&state, seat) {
                Ok(code) => sent.push(Sent {
                    name: format!("{code}.txt"),
                    empire: Some(code),
                    text: Ok(text.clone()),
                }),
                Err(e) => notes.push(format!("{seat}.txt: {e}")),
            }
        }
        // Empires whose players sent nothing are played by the computer (2.5): the host
        // that runs this ruleset has already waited for its deadline.
        let options = TurnOptions {
            yes: true,
            ..TurnOptions::default()
        };
        let next = state.turn + 1;
        let played = play_sheets(
            &map,
            None,
            &state,
            next,
            &sent,
            options,
            Origin::titled("orders"),
        )?;
        let new_sheets = played
            .state
            .empires
            .iter()
            .filter(|e| e.eliminated.is_none())
            .map(|e| (e.code.to_string(), sheet_of(&played.state, e)))
            .collect();
        notes.extend(played.report.warnings.iter().cloned());
        Ok(Turn {
            turn: next,
            state: played.files.state,
            events: played.files.events.unwrap_or_default(),
            reports: played.files.reports,
            sheets: new_sheets,
            computer_orders: played.files.computer_orders,
            events_count: played.report.events,
            failed: played.report.failed,
            notes,
            kept: None,
        })
    }

    fn header(&self, sheet: &str) -> SheetHeader {
        let parsed = empires_orders::parse_sheet(sheet);
        let value = |l: Option<empires_orders::sheet::Located<String>>| l.map(|l| l.value);
        SheetHeader {
            game: value(parsed.game),
            seat: value(parsed.empire),
            turn: value(parsed.turn),
        }
    }
}
