//! Fog of war (10.1, 10.2): a report holds nothing its empire may not know. Changing
//! anything the empire cannot see must leave its report exactly as it was.
use crate::common;
use common::*;
use empires_report::{Turn, report};
use empires_rules::knowledge::visible_areas;
use empires_rules::order::{Order, Turnsheet, Verb};
use empires_rules::setup::{NewGame, new_game};
use empires_rules::{EmpireCode, GameState, Options, Variant, adjudicate};
use proptest::prelude::*;
use std::collections::BTreeMap;

/// Random but plausible orders: moves, attacks and spies between neighbouring areas.
fn orders(
    map: &empires_rules::Map,
    st: &GameState,
    picks: &[(u8, u16, u8)],
) -> BTreeMap<EmpireCode, Turnsheet> {
    let mut all = BTreeMap::new();
    for (i, e) in st.empires.iter().enumerate() {
        let own: Vec<_> = st.owned_by(e.code).collect();
        let mut v = Vec::new();
        for (k, &(verb, a, n)) in picks.iter().enumerate() {
            if k % st.empires.len() != i || own.is_empty() {
                continue;
            }
            let from = own[a as usize % own.len()];
            let nb = map.neighbours(from);
            let to = nb[n as usize % nb.len()];
            let (f, t) = (map.code(from).to_string(), map.code(to).to_string());
            v.push(match verb % 6 {
                0 => Order::new(Verb::Attack).from(&f).to(&t),
                1 => Order::new(Verb::Move).from(&f).to(&t).all_but(1),
                2 => Order::new(Verb::Spy).from(&f).to(&t),
                3 => Order::new(Verb::Sabotage),
                4 => Order::new(Verb::Watch),
                _ => Order::new(Verb::Grow).from(&f),
            });
        }
        all.insert(e.code, Turnsheet::of(v));
    }
    all
}

/// Changes everything `empire` cannot know about the state at the end of the turn.
fn disturb(
    map: &empires_rules::Map,
    st: &GameState,
    empire: EmpireCode,
    seen: &[bool],
) -> GameState {
    let mut twin = st.clone();
    for (i, a) in twin.areas.iter_mut().enumerate() {
        if !seen[i] && a.owner != Some(empire) {
            a.population += 7;
            a.armies += 5;
            a.forts += 3;
            a.trains += 2;
            if let Some(f) = a.fleet.as_mut() {
                f.ships += 4;
            }
        }
        if a.watcher.is_some() && a.watcher != Some(empire) {
            a.watcher = None;
        }
    }
    for e in twin.empires.iter_mut().filter(|e| e.code != empire) {
        e.bps += 11;
        e.navy_reserve += 2;
        e.air_force += 3;
        e.income += 5;
        e.supply_cost += 1;
        e.spy = e.spy.take().map(|mut s| {
            s.area = map.code(map.ids().find(|_| true).unwrap());
            s
        });
    }
    twin
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn nothing_hidden_reaches_a_report(
        seed in 0u64..1000,
        picks in prop::collection::vec((any::<u8>(), any::<u16>(), any::<u8>()), 0..64)
    ) {
        let map = tutorial();
        let st = new_game(&map, &NewGame {
            name: "fog".into(),
            variant: Variant::Medieval,
            seed,
            players: BTreeMap::new(),
            options: Options::default(),
        }).unwrap();
        let out = adjudicate(&map, &st, &orders(&map, &st, &picks)).unwrap();
        for e in &out.state.empires {
            let mut seen = visible_areas(&map, &out.state, e.code);
            // Areas the empire's own actions showed it are known too (10.1).
            for ev in &out.events {
                if let empires_rules::event::What::Action { empire, seen: s, .. } = &ev.what
                    && *empire == e.code
                {
                    for c in s {
                        seen[map.id(*c).unwrap().index()] = true;
                    }
                }
            }
            let turn = Turn { map: &map, state: &out.state, events: &out.events, computer_written: &[], gm_messages: &[], sheet_game: None };
            let real = report(&turn, e.code);
            let twin_state = disturb(&map, &out.state, e.code, &seen);
            let twin = Turn { map: &map, state: &twin_state, events: &out.events, computer_written: &[], gm_messages: &[], sheet_game: None };
            let other = report(&twin, e.code);
            prop_assert_eq!(
                serde_json::to_string_pretty(&real).unwrap(),
                serde_json::to_string_pretty(&other).unwrap(),
                "the report of {} changed with what it cannot see", e.code
            );
            // Events that do not concern the empire show only in the public sections.
            for h in &real.against_you {
                prop_assert!(h.by.as_deref() != Some(e.code.as_str()));
            }
        }
    }
}
