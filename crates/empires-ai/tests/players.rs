//! The computer players: the caretaker never attacks, every turnsheet passes the order
//! checker, both routines are deterministic, and computer empires survive and grow.
use empires_ai::sim::{computer_turn, play_game};
use empires_ai::{Style, orders_for, style_for};
use empires_orders::{Context, check, parse_sheet};
use empires_rules::event::What;
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{GameState, Map, Options, Variant, adjudicate};
use std::collections::BTreeMap;

fn standard(name: &str) -> Map {
    let text = std::fs::read_to_string(format!(
        "{}/../../maps/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    Map::from_toml(&text, name).unwrap()
}

fn start(map: &Map, seed: u64) -> GameState {
    new_game(
        map,
        &NewGame {
            name: "ai".into(),
            variant: map.variant.unwrap_or(Variant::World),
            seed,
            players: BTreeMap::new(),
            options: Options::default(),
        },
    )
    .unwrap()
}

#[test]
fn rule_2_5_the_caretaker_never_attacks() {
    for name in ["tutorial", "european", "world"] {
        let map = standard(name);
        let mut st = start(&map, 3);
        for _ in 0..8 {
            let orders: BTreeMap<_, _> = st
                .empires
                .iter()
                .filter(|e| e.alive())
                .map(|e| {
                    let text = orders_for(&map, &st, e.code, Style::Caretaker);
                    assert!(
                        !text.contains("ATTACK") && !text.contains("CONVOY"),
                        "{name} {}: {text}",
                        e.code
                    );
                    let mut sheet = empires_orders::parse_turnsheet(&text);
                    sheet.computer = true;
                    (e.code, sheet)
                })
                .collect();
            if st.result.is_some() {
                break;
            }
            let out = adjudicate(&map, &st, &orders).unwrap();
            let fights = out
                .events
                .iter()
                .filter(|ev| matches!(ev.what, What::LandBattle(_) | What::SeaBattle { .. }))
                .count();
            assert_eq!(fights, 0, "{name} turn {}", out.state.turn);
            st = out.state;
        }
    }
}

#[test]
fn computer_turnsheets_pass_the_order_checker() {
    for name in ["tutorial", "medieval", "european", "australian", "world"] {
        let map = standard(name);
        let mut st = start(&map, 7);
        for _ in 0..6 {
            for e in st.empires.iter().filter(|e| e.alive()) {
                for style in [Style::Caretaker, Style::Aggressive] {
                    let text = orders_for(&map, &st, e.code, style);
                    let cx = Context {
                        map: &map,
                        state: &st,
                        empire: e.code,
                    };
                    let errors: Vec<_> = check(&parse_sheet(&text), &cx)
                        .into_iter()
                        .filter(|d| d.is_error())
                        .collect();
                    assert!(
                        errors.is_empty(),
                        "{name} {} {style:?}:\n{text}\n{errors:#?}",
                        e.code
                    );
                    let lines = text.lines().count() as u32;
                    assert_eq!(lines, st.options.actions_per_turn, "{name} {}", e.code);
                }
            }
            st = computer_turn(&map, &st).unwrap().state;
            if st.result.is_some() {
                break;
            }
        }
    }
}

#[test]
fn both_routines_are_deterministic() {
    let map = standard("european");
    let st = start(&map, 11);
    for e in &st.empires {
        for style in [Style::Caretaker, Style::Aggressive] {
            assert_eq!(
                orders_for(&map, &st, e.code, style),
                orders_for(&map, &st, e.code, style)
            );
        }
    }
    let a = play_game(&map, Variant::European, 5, 12, |_| {}).unwrap();
    let b = play_game(&map, Variant::European, 5, 12, |_| {}).unwrap();
    assert_eq!(a.state, b.state);
}

#[test]
fn computer_empires_survive_and_grow() {
    let map = standard("world");
    let st = start(&map, 2);
    let areas = |s: &GameState| s.areas.iter().filter(|a| a.owner.is_some()).count();
    let income = |s: &GameState| s.empires.iter().map(|e| e.income).sum::<u32>();
    let r = play_game(&map, Variant::World, 2, 20, |_| {}).unwrap();
    let alive = r.state.empires.iter().filter(|e| e.alive()).count();
    assert!(alive * 10 >= r.state.empires.len() * 8, "{alive} alive");
    assert!(
        areas(&r.state) > areas(&st),
        "{} -> {}",
        areas(&st),
        areas(&r.state)
    );
    assert!(
        income(&r.state) > income(&st),
        "{} -> {}",
        income(&st),
        income(&r.state)
    );
}

#[test]
fn decision_21_who_plays_which_routine() {
    let map = standard("tutorial");
    let mut st = start(&map, 1);
    let o = st.options.clone();
    let e = &mut st.empires[0];
    // A dummy (no player) plays aggressively; a player who sent orders gets none.
    assert_eq!(style_for(e, &o, false), Some(Style::Aggressive));
    e.player = Some("Alice".into());
    assert_eq!(style_for(e, &o, true), None);
    // A missed turn gets the caretaker, until the third missed turn in a row.
    assert_eq!(style_for(e, &o, false), Some(Style::Caretaker));
    e.missed_turns = 1;
    assert_eq!(style_for(e, &o, false), Some(Style::Caretaker));
    e.missed_turns = 2;
    assert_eq!(style_for(e, &o, false), Some(Style::Aggressive));
}
