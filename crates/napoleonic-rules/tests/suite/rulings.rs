//! The GM's rulings (N5): a ruler's status (2.10), a proclamation's income denied (L13)
//! and a declared result (digest 6), read from the GM's sheet and applied with the turn.

use crate::finals_support::*;
use napoleonic_rules::play_ruled;
use napoleonic_rules::rulings::{Rulings, read};

fn ruled(text: &str) -> Rulings {
    let (map, s) = setup();
    let (r, problems) = read(&map, &s, text);
    assert!(problems.is_empty(), "{problems:?}");
    r
}

fn hire_at_paris() -> KingdomOrders {
    units(vec![order(g(PAR), |u| u.hire_leader = true)])
}

#[test]
fn n5_rulings_are_read_one_a_line_and_mistakes_name_their_line() {
    let r = ruled(
        "# the GM's rulings\nroyalty FRA fee 10\nCOMMONER BAV   # fee returned\n\
         DENY PROCLAMATION SAV\nWINNER FRA BAV: the peace of Lyon\n",
    );
    assert_eq!(r.status[&kc("FRA")], Status::Royalty);
    assert_eq!(r.fees[&kc("FRA")], 10);
    assert!(!r.fees.contains_key(&kc("BAV")));
    assert_eq!(r.status[&kc("BAV")], Status::Commoner);
    assert!(r.deny_proclamation.contains(&kc("SAV")));
    let w = r.winner.unwrap();
    assert_eq!(
        (w.kingdoms, w.reason.as_str()),
        (vec![kc("FRA"), kc("BAV")], "the peace of Lyon")
    );

    let (map, s) = setup();
    let (r, problems) = read(
        &map,
        &s,
        "ROYALTY FRA\nKNIGHT FRA\nROYALTY XYZ\nROYALTY IND\nROYALTY FRA BAV\nWINNER FRA\n\
         ROYALTY BAV FEE ten\n",
    );
    assert_eq!(r.status.len(), 1, "the good line counts");
    let lines: Vec<usize> = problems.iter().map(|p| p.line).collect();
    assert_eq!(lines, vec![2, 3, 4, 5, 6, 7], "{problems:?}");
    assert!(problems[5].message.contains("not a fee"), "{problems:?}");
    assert!(problems[0].message.contains("not a ruling"), "{problems:?}");
    assert!(problems[1].message.contains("no kingdom XYZ"));
    assert!(problems[2].message.contains("independents"));
    assert!(problems[3].message.contains("names one kingdom"));
    assert!(problems[4].message.contains("reason"));
}

/// 2.10: Royalty is bought from the GM; from the turn the ruling is played with, leaders
/// join the ruler's cause (L5) where a Commoner's hiring fails.
#[test]
fn n5_a_ruler_made_royalty_hires_leaders_that_turn() {
    let (map, s) = setup();
    let o = orders(vec![("FRA", hire_at_paris())]);
    let (_, events) = run(&map, &s, &o);
    assert!(
        failures(&events, "FRA")[0].contains("Commoner"),
        "{events:?}"
    );

    let out = play_ruled(&map, &s, &o, &ruled("ROYALTY FRA")).unwrap();
    assert!(failures(&out.events, "FRA").is_empty(), "{:?}", out.events);
    assert_eq!(out.state.kingdoms[&kc("FRA")].status, Status::Royalty);
    assert_eq!(out.events[0].when, When::First(0));
    assert_eq!(
        out.events[0].what,
        What::StatusChanged {
            kingdom: kc("FRA"),
            status: Status::Royalty
        }
    );
    assert!(
        out.events
            .iter()
            .any(|e| matches!(&e.what, What::LeaderHired { unit, .. } if unit.0 == kc("FRA")))
    );
    // A ruling that changes nothing is not announced.
    let again = play_ruled(&map, &out.state, &orders(vec![]), &ruled("ROYALTY FRA")).unwrap();
    assert!(
        !again
            .events
            .iter()
            .any(|e| matches!(e.what, What::StatusChanged { .. }))
    );
}

/// L18, G28: a ruler made Commoner again loses the leaders a Commoner may not keep.
#[test]
fn n5_a_ruler_made_commoner_again_meets_the_commoners_limits() {
    let (map, mut s) = setup();
    s.kingdoms.get_mut(&kc("FRA")).unwrap().status = Status::Royalty;
    unit_mut(&mut s, "FRA", g(PAR))
        .leaders
        .push(leader("Murat", gold(2)));
    let out = play_ruled(&map, &s, &orders(vec![]), &ruled("COMMONER FRA")).unwrap();
    assert_eq!(out.state.kingdoms[&kc("FRA")].status, Status::Commoner);
    assert!(unit(&out.state, "FRA", g(PAR)).leaders.is_empty());
}

/// L13: "the GM is reading": a proclamation the GM denies is published and earns nothing.
#[test]
fn n5_a_denied_proclamation_is_published_and_earns_nothing() {
    let (map, s) = setup();
    let fra = KingdomOrders {
        proclamation: Some("Something unsuitable".into()),
        ..KingdomOrders::default()
    };
    let o = orders(vec![("FRA", fra)]);
    let (paid, _) = run(&map, &s, &o);
    let out = play_ruled(&map, &s, &o, &ruled("DENY PROCLAMATION FRA")).unwrap();
    assert_eq!(
        treasury(&paid, "FRA") - treasury(&out.state, "FRA"),
        gold(7)
    );
    let l13 = finals_of(&out.events, 13);
    assert!(l13.contains(&&What::ProclamationDenied { kingdom: kc("FRA") }));
    assert!(l13.contains(&&What::Proclamation {
        kingdom: kc("FRA"),
        text: "Something unsuitable".into(),
        income: Fixed::ZERO,
    }));
}

/// Digest 6: the GM may declare the winners; the turn's outcome carries the result, and
/// every kingdom is told.
#[test]
fn n5_the_gm_declares_the_winners_and_the_game_ends() {
    let (map, s) = setup();
    let out = play_ruled(
        &map,
        &s,
        &orders(vec![]),
        &ruled("WINNER FRA BAV: masters of the Rhine"),
    )
    .unwrap();
    let v = out.declared.unwrap().unwrap();
    // The winners in code order.
    assert_eq!(v.kingdoms, vec![kc("BAV"), kc("FRA")]);
    assert_eq!(v.turn, s.turn);
    assert_eq!((v.provinces, v.of), (7, 10));
    assert!(finals_of(&out.events, 20).contains(&&What::GameDeclared {
        kingdoms: vec![kc("BAV"), kc("FRA")],
        reason: "masters of the Rhine".into(),
        provinces: 7,
        of: 10,
    }));
    // Without a ruling there is no result.
    assert!(play(&map, &s, &orders(vec![])).unwrap().declared.is_none());
}
