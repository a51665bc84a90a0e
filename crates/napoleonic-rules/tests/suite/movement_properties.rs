//! Whatever the orders, the First Events and the movement phases finish without panicking,
//! keep armies aboard with their fleets, never give a troop more move points than its type
//! has, and replay to the same bytes.

use crate::moves_support;

use moves_support::*;
use napoleonic_rules::ids::LocId;
use napoleonic_rules::orders::{Admin, HqOrder, Step};
use proptest::prelude::*;

const PLACES: [u16; 14] = [
    PAR, NOR, PIC, FLA, BRA, ALS, BAD, HOL, LAK, DEN, CHA, NSE, 0, 999,
];
const KINGDOMS: [&str; 5] = ["FRA", "AUS", "PRU", "GBR", "IND"];
const UNITS: [&str; 6] = ["A1", "A2", "F1", "F2", "G1", "A5"];

fn scenario() -> (napoleonic_rules::Map, napoleonic_rules::GameState) {
    let (map, mut s) = world();
    place(&mut s, "FRA", "A1", PAR, &[("LIN", 2), ("LCV", 1)]);
    place(&mut s, "FRA", "A2", PIC, &[("COS", 2), ("ART", 1)]);
    place(&mut s, "FRA", "F1", CHA, &[("WAR", 1), ("TRN", 1)]);
    place(&mut s, "FRA", "A3", CHA, &[("LIN", 2)]);
    board(&mut s, "FRA", "A3", "FRA", "F1");
    place(&mut s, "AUS", "A1", BRA, &[("LIN", 3)]);
    place(&mut s, "AUS", "A2", FLA, &[("CUI", 1)]);
    place(&mut s, "AUS", "F1", FLA, &[("WAR", 1)]);
    place(&mut s, "GBR", "F1", NSE, &[("WAR", 2)]);
    place(&mut s, "GBR", "A1", NSE, &[("LIN", 1)]);
    board(&mut s, "GBR", "A1", "GBR", "F1");
    place(&mut s, "PRU", "A1", ALS, &[("LIN", 2)]);
    place(&mut s, "IND", "G8", HOL, &[("MIL", 2)]);
    (map, s)
}

#[derive(Debug, Clone)]
enum Act {
    War(usize, usize),
    Passage(usize, usize),
    Step(usize, usize, u8, usize),
    Load(usize, usize, u8, usize, usize),
    Unload(usize, usize, u8, usize, usize),
    Give(usize, usize, u8, usize, usize),
    Prepare(usize, usize, u8, usize),
    Pillage(usize, usize, u8),
    Follow(usize, usize, usize),
    Form(usize, usize, usize),
}

fn act() -> impl Strategy<Value = Act> {
    let k = 0..KINGDOMS.len();
    let un = 0..UNITS.len();
    let pl = 0..PLACES.len();
    let ph = 0u8..6;
    prop_oneof![
        (k.clone(), k.clone()).prop_map(|(a, b)| Act::War(a, b)),
        (k.clone(), k.clone()).prop_map(|(a, b)| Act::Passage(a, b)),
        (k.clone(), un.clone(), ph.clone(), pl.clone())
            .prop_map(|(a, b, c, d)| Act::Step(a, b, c, d)),
        (k.clone(), un.clone(), ph.clone(), k.clone(), un.clone())
            .prop_map(|(a, b, c, d, e)| Act::Load(a, b, c, d, e)),
        (k.clone(), un.clone(), ph.clone(), un.clone(), pl.clone())
            .prop_map(|(a, b, c, d, e)| Act::Unload(a, b, c, d, e)),
        (k.clone(), un.clone(), ph.clone(), k.clone(), un.clone())
            .prop_map(|(a, b, c, d, e)| Act::Give(a, b, c, d, e)),
        (k.clone(), un.clone(), ph.clone(), k.clone())
            .prop_map(|(a, b, c, d)| Act::Prepare(a, b, c, d)),
        (k.clone(), un.clone(), ph.clone()).prop_map(|(a, b, c)| Act::Pillage(a, b, c)),
        (k.clone(), un.clone(), un.clone()).prop_map(|(a, b, c)| Act::Follow(a, b, c)),
        (k, un.clone(), un).prop_map(|(a, b, c)| Act::Form(a, b, c)),
    ]
}

fn orders(acts: &[Act]) -> Orders {
    let mut o = Orders::new();
    for a in acts {
        match a.clone() {
            Act::War(x, y) => {
                o.hq(KINGDOMS[x], HqOrder::DeclareWar { to: k(KINGDOMS[y]) });
            }
            Act::Passage(x, y) => {
                o.hq(KINGDOMS[x], HqOrder::GrantPassage { to: k(KINGDOMS[y]) });
            }
            Act::Step(x, un, p, pl) => {
                let step = if PLACES[pl] == 0 {
                    Step::Hold
                } else {
                    Step::Move(LocId(PLACES[pl]))
                };
                o.phase(KINGDOMS[x], UNITS[un], p).step = Some(step);
            }
            Act::Load(x, un, p, y, a) => {
                let after = p % 2 == 0;
                let e = o.phase(KINGDOMS[x], UNITS[un], p);
                let list = if after {
                    &mut e.load_after
                } else {
                    &mut e.load
                };
                list.push((Some(k(KINGDOMS[y])), u(UNITS[a])));
            }
            Act::Unload(x, un, p, a, pl) => {
                o.phase(KINGDOMS[x], UNITS[un], p).unload.push((
                    None,
                    u(UNITS[a]),
                    LocId(PLACES[pl]),
                ));
            }
            Act::Give(x, un, p, y, to) => {
                let t = xfer(Some(KINGDOMS[y]), UNITS[to], &[("LIN", 1), ("WAR", 1)], &[]);
                if p == 0 {
                    o.unit(KINGDOMS[x], UNITS[un]).transfers.push(t);
                } else {
                    o.phase(KINGDOMS[x], UNITS[un], p).transfers.push(t);
                }
            }
            Act::Prepare(x, un, p, y) => {
                o.phase(KINGDOMS[x], UNITS[un], p).prepare_board = Some(k(KINGDOMS[y]));
            }
            Act::Pillage(x, un, p) => o.phase(KINGDOMS[x], UNITS[un], p).pillage = true,
            Act::Follow(x, un, f) => o.unit(KINGDOMS[x], UNITS[un]).admin.push(Admin::Follow {
                unit: Some(u(UNITS[f])),
            }),
            Act::Form(x, un, n) => {
                o.unit(KINGDOMS[x], UNITS[un])
                    .form
                    .push((u(UNITS[n]), String::new()));
            }
        }
    }
    o
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn any_orders_keep_the_invariants(acts in prop::collection::vec(act(), 0..40), war in any::<bool>()) {
        let (map, mut s) = scenario();
        if war {
            set_war(&mut s, "FRA", "AUS");
            set_war(&mut s, "FRA", "GBR");
        }
        let o = orders(&acts);
        let out = play(&map, &s, &o);
        for a in &out.state.units {
            if let Some((fk, fid)) = &a.aboard {
                let f = out.state.unit(fk, *fid);
                prop_assert!(f.is_some(), "{} {} aboard a fleet that is gone", a.owner, a.id);
                prop_assert_eq!(f.unwrap().location, a.location);
            }
            prop_assert!(map.get(a.location).is_some());
            for t in &a.troops {
                prop_assert!(t.mp <= out.state.tables.troop(&t.code).unwrap().mp);
            }
        }
        let again = play(&map, &s, &o);
        prop_assert_eq!(
            serde_json::to_string(&out.events).unwrap(),
            serde_json::to_string(&again.events).unwrap()
        );
        prop_assert_eq!(out.state, again.state);
    }
}
