//! What each kingdom's report holds and what it must never hold (G34), the money panel
//! (G41, G42), and the text and HTML renderings.

mod common;

use common::*;
use napoleonic_report::model::{Seen, to_json};
use napoleonic_report::{html, report, text};
use napoleonic_rules::event::What;
use napoleonic_rules::orders::{HqOrder, KingdomOrders, TroopCount, UnitOrders};
use napoleonic_rules::state::Unit;
use napoleonic_rules::{Fixed, KingdomCode, LocId, TroopCode, UnitId};

fn both() -> (napoleonic_report::Report, napoleonic_report::Report) {
    let (map, after, events) = played();
    (
        report(&map, &after, &events, &k("FRA"), None),
        report(&map, &after, &events, &k("PRU"), None),
    )
}

/// Troops and leaders of everyone but `viewer` in a location, as the state holds them.
fn foreign_count(units: &[Unit], viewer: &KingdomCode, at: LocId) -> u32 {
    units
        .iter()
        .filter(|u| &u.owner != viewer && u.location == at)
        .map(|u| (u.troops.len() + u.leaders.len()) as u32)
        .sum()
}

#[test]
fn g34_a_report_never_holds_another_kingdoms_treasury_orders_compositions_or_failures() {
    let (map, after, events) = played();
    let fra = report(&map, &after, &events, &k("FRA"), None);
    let pru = report(&map, &after, &events, &k("PRU"), None);
    let fj = to_json(&fra);
    let pj = to_json(&pru);
    let treasury = |who: &str| after.kingdoms[&k(who)].treasury.to_string();
    let (pru_treasury, fra_treasury) = (treasury("PRU"), treasury("FRA"));
    // Prussia's secrets: in its own report, never in France's.
    for secret in [
        pru_treasury.as_str(),
        "PRUSSIAN SECRET REASON", // a failed order
        "PRUSSIAN BOUNCE",        // a failed march
        "Secret Guard of Berlin", // a unit's name
        "General Hiddenmarck",    // a leader
        "7.77",                   // upkeep paid
        "12.34",                  // decay
        "55.55",                  // revenue
        "66.66",                  // troops built, and their cost
        "3.33",                   // pillage takings
        "7.07",                   // proclamation income
    ] {
        assert!(!fj.contains(secret), "France's report shows {secret:?}");
        assert!(
            pj.contains(secret),
            "Prussia's own report should show {secret:?}"
        );
    }
    // France's, the other way round.
    for secret in [
        fra_treasury.as_str(),
        "Hanover is not next to Paris",
        "Grande Armee",
        "19.5",
    ] {
        assert!(!pj.contains(secret), "Prussia's report shows {secret:?}");
        assert!(
            fj.contains(secret),
            "France's own report should show {secret:?}"
        );
    }
    // No transfers of others, no failed orders of others, in any form.
    for e in &fra.events {
        match &e.detail {
            Some(What::OrderFailed { kingdom, .. }) => assert_eq!(kingdom, &k("FRA")),
            Some(What::Transferred { from, to, .. }) => {
                assert!(from.0 == k("FRA") || to.0 == k("FRA"))
            }
            Some(What::Bounced { unit, .. }) => assert_eq!(unit.0, k("FRA")),
            Some(What::UpkeepPaid { kingdom, .. })
            | Some(What::Decay { kingdom, .. })
            | Some(What::Revenue { kingdom, .. }) => assert_eq!(kingdom, &k("FRA")),
            _ => {}
        }
    }
    assert!(
        fra.messages.iter().all(|m| !m.text.contains("PRUSSIAN")),
        "{:?}",
        fra.messages
    );
}

#[test]
fn g34_units_in_full_are_the_kingdoms_own_and_foreign_forces_are_count_and_top_type_only() {
    let (map, after, events) = played();
    let fra = report(&map, &after, &events, &k("FRA"), None);
    assert!(!fra.units.is_empty());
    let own: Vec<UnitId> = after
        .units
        .iter()
        .filter(|u| u.owner == k("FRA"))
        .map(|u| u.id)
        .collect();
    assert_eq!(fra.units.iter().map(|u| u.id).collect::<Vec<_>>(), own);
    // Every location with someone else's troops is listed, with the count the map shows.
    let mut locations: Vec<LocId> = after
        .units
        .iter()
        .filter(|u| u.owner != k("FRA") && !(u.troops.is_empty() && u.leaders.is_empty()))
        .map(|u| u.location)
        .collect();
    locations.sort();
    locations.dedup();
    assert_eq!(
        fra.foreign_forces
            .iter()
            .map(|f| f.location.id)
            .collect::<Vec<_>>(),
        locations
    );
    for f in &fra.foreign_forces {
        assert_eq!(
            f.count,
            foreign_count(&after.units, &k("FRA"), f.location.id)
        );
        assert!(!f.kingdoms.contains(&k("FRA")));
    }
    // Prussia's main army: only its count and its dearest type, cuirassiers (cost 20).
    let berlin_army = after.unit(&k("PRU"), UnitId::army(1)).unwrap();
    let f = fra
        .foreign_forces
        .iter()
        .find(|f| f.location.id == berlin_army.location)
        .unwrap();
    if berlin_army.troops.iter().any(|t| t.code.0 == "CUI") {
        assert_eq!(f.top.as_ref().unwrap().code, TroopCode("CUI".into()));
    }
    // The JSON of a foreign force has no composition: just these fields.
    let v = serde_json::to_value(f).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["count", "kingdoms", "location", "top"]);
}

#[test]
fn events_are_seen_when_own_nearby_diplomatic_or_public() {
    let (fra, pru) = both();
    let texts: Vec<&str> = fra.events.iter().map(|e| e.text.as_str()).collect();
    // War declared on France: diplomacy involving it.
    assert!(
        fra.events
            .iter()
            .any(|e| e.seen == Seen::Diplomacy && e.text.contains("declared war on you")),
        "{texts:#?}"
    );
    // Prussia marching Hanover to the Rhineland, next to Paris: the second step is nearby,
    // the first (Berlin to Hanover, far from France) is not.
    assert!(
        texts
            .iter()
            .any(|t| t.contains("PRU A1 moved from Hanover (HAN) to Rhineland (RHI)")),
        "{texts:#?}"
    );
    assert!(
        !texts
            .iter()
            .any(|t| t.contains("from Brandenburg (BRLN) to Hanover")),
        "{texts:#?}"
    );
    // The pillage next door, without the takings.
    let pillage = fra
        .events
        .iter()
        .find(|e| e.text.contains("pillaged Rhineland"))
        .expect("the pillage next to Paris");
    assert_eq!(pillage.seen, Seen::Nearby);
    assert!(pillage.detail.is_none());
    // Ownership changes anywhere, proclamations from everyone: public.
    assert!(
        fra.events
            .iter()
            .any(|e| e.seen == Seen::Public && e.text.contains("Rhineland (RHI) passed"))
    );
    assert!(fra.proclamations.iter().any(|p| p.kingdom == k("PRU")
        && p.text == "Prussia keeps its word."
        && p.income.is_none()));
    let own = pru
        .proclamations
        .iter()
        .find(|p| p.kingdom == k("PRU") && p.income.is_some())
        .expect("Prussia's own proclamation with its income");
    assert_eq!(own.text, "Prussia keeps its word.");
    // Own failures are messages.
    assert!(
        fra.messages
            .iter()
            .any(|m| m.text.contains("Hanover is not next to Paris"))
    );
}

#[test]
fn relations_list_every_other_kingdom_with_passage_and_gifts_both_ways() {
    let (map, mut after, events) = played();
    let fra_k = k("FRA");
    let pru_k = k("PRU");
    after
        .kingdoms
        .get_mut(&pru_k)
        .unwrap()
        .passage_to
        .insert(fra_k.clone());
    after
        .kingdoms
        .get_mut(&fra_k)
        .unwrap()
        .refuses
        .insert(pru_k.clone());
    let fra = report(&map, &after, &events, &fra_k, None);
    assert_eq!(
        fra.relations.len(),
        1,
        "Prussia only; the independents are not listed"
    );
    let r = &fra.relations[0];
    assert_eq!(r.kingdom, pru_k);
    assert!(r.passage_from_them && !r.passage_to_them);
    assert!(!r.we_accept_gifts && r.they_accept_gifts);
    let pru = report(&map, &after, &events, &pru_k, None);
    let r = &pru.relations[0];
    assert!(r.passage_to_them && !r.passage_from_them);
    assert!(r.we_accept_gifts && !r.they_accept_gifts);
}

#[test]
fn t1_the_panel_shows_whole_gold_truncated_and_keeps_the_exact_sums() {
    let map = map();
    let mut s = start(&map);
    let fra = k("FRA");
    s.kingdoms.get_mut(&fra).unwrap().treasury = Fixed::parse("10.99").unwrap();
    // Four grenadiers of upkeep 1.1 each and nothing else: 4.4, shown as 4 (T1, G41).
    let a1 = s.unit_mut(&fra, UnitId::army(1)).unwrap();
    a1.troops.retain(|t| t.code.0 == "GRE");
    let g = a1.troops[0].clone();
    a1.troops = vec![g.clone(), g.clone(), g.clone(), g];
    a1.leaders.clear();
    s.units
        .retain(|u| u.owner != fra || u.id == UnitId::army(1));
    let r = report(&map, &s, &[], &fra, None);
    let h = &r.headquarters;
    assert_eq!((h.upkeep.exact.as_str(), h.upkeep.shown), ("4.4", 4));
    assert_eq!((h.treasury.exact.as_str(), h.treasury.shown), ("10.99", 10));
    // 10.99 - 4.4 = 6.59, shown 6 (G42: exact inside, truncated outside).
    assert_eq!(
        (h.expected_surplus.exact.as_str(), h.expected_surplus.shown),
        ("6.59", 6)
    );
    // Paris 20 and Normandy 10 at no damage.
    assert_eq!(h.expected_revenue.exact, "30");
    assert!(!h.with_orders);
}

#[test]
fn the_panel_counts_the_coming_turns_orders_and_warns_of_a_shortfall() {
    let map = map();
    let s = start(&map);
    let pru = k("PRU");
    let mut garrison = UnitOrders::new(UnitId::garrison(LocId(6)));
    garrison.recruit.push(TroopCount {
        code: TroopCode("CUI".into()),
        count: 2,
    });
    let orders = KingdomOrders {
        hq: vec![HqOrder::SendGold {
            to: k("FRA"),
            amount: Fixed::whole(900),
        }],
        units: vec![garrison],
        proclamation: None,
    };
    let r = report(&map, &s, &[], &pru, Some(&orders));
    let h = &r.headquarters;
    assert!(h.with_orders);
    // L2: 900 and a 10% fee; L4: two cuirassiers at 20.
    assert_eq!(h.hq_expenses.exact, "990");
    assert_eq!(h.garrison_expenses.exact, "40");
    let expected =
        Fixed::parse("987.65").unwrap() - h.upkeep.gold() - Fixed::whole(990) - Fixed::whole(40);
    assert_eq!(h.expected_surplus.gold(), expected);
    assert!(h.expected_surplus.is_negative());
    assert!(
        r.messages.iter().any(|m| m.text.contains("shortfall")),
        "{:?}",
        r.messages
    );
    // France's report, made at the same time, knows nothing of these orders.
    let fra = report(&map, &s, &[], &k("FRA"), None);
    let fj = to_json(&fra);
    assert!(!fj.contains("990") && !fj.contains("987.65"));
}

#[test]
fn a_kingdom_not_in_the_game_gets_an_empty_report_that_says_so() {
    let map = map();
    let s = start(&map);
    let r = report(&map, &s, &[], &k("XYZ"), None);
    assert!(r.units.is_empty() && r.provinces.is_empty() && r.relations.is_empty());
    assert!(r.messages.iter().any(|m| m.text.contains("no kingdom XYZ")));
    assert!(text::text(&r).lines().all(|l| l.chars().count() <= 80));
}

#[test]
fn every_line_of_the_text_fits_80_columns() {
    let (map, mut after, mut events) = played();
    // Long names and a long proclamation must wrap or be cut, never overflow.
    let fra = k("FRA");
    after.kingdoms.get_mut(&fra).unwrap().name =
        "The Most Serene and Everlasting Empire of the French and Their Allies".into();
    after.unit_mut(&fra, UnitId::army(1)).unwrap().name =
        "The First Grand Army of the Empire, Marching Ever Eastward Without Rest".into();
    events.push(napoleonic_rules::event::Event {
        when: napoleonic_rules::event::When::Final(13),
        what: What::Proclamation {
            kingdom: k("PRU"),
            text: format!("{} {}", "Hear ye! ".repeat(30), "x".repeat(200)),
            income: Fixed::ZERO,
        },
    });
    for who in ["FRA", "PRU"] {
        let r = report(&map, &after, &events, &k(who), None);
        let t = text::text(&r);
        for (i, line) in t.lines().enumerate() {
            assert!(
                line.chars().count() <= 80,
                "{who} line {}: {} columns: {line:?}",
                i + 1,
                line.chars().count()
            );
        }
        assert!(t.contains("HEADQUARTERS") && t.contains("Treasury"));
    }
}

#[test]
fn the_text_wraps_words_and_splits_only_words_longer_than_a_line() {
    use napoleonic_report::text::wrap;
    let lines = wrap("aaa bbb ccc", "> ", "  ", 9);
    assert_eq!(lines, ["> aaa bbb", "  ccc"]);
    let lines = wrap("abcdefghijkl", "", "", 5);
    assert_eq!(lines, ["abcde", "fghij", "kl"]);
    assert_eq!(wrap("", "  ", "  ", 80), ["  "]);
}

#[test]
fn the_html_is_balanced_escaped_and_holds_the_panel() {
    let (map, mut after, events) = played();
    after.kingdoms.get_mut(&k("FRA")).unwrap().name = "France <b>& \"friends\"</b>".into();
    let r = report(&map, &after, &events, &k("FRA"), None);
    let page = html::html(&r, None);
    balanced(&page).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("name=\"viewport\""));
    for label in [
        "Treasury",
        "Upkeep",
        "HQ expenses",
        "Garrison expenses",
        "Expected surplus",
        "Expected revenue",
    ] {
        assert!(page.contains(label), "the panel's {label}");
    }
    let whole = format!(
        "<span class=\"val\">{}</span>",
        r.headquarters.treasury.shown
    );
    assert!(page.contains(&whole), "the treasury, whole");
    assert!(page.contains("France &lt;b&gt;&amp; &quot;friends&quot;&lt;/b&gt;"));
    assert!(!page.contains("<script"), "no scripts needed");
    assert!(!page.contains(&after.kingdoms[&k("PRU")].treasury.to_string()));
}

#[test]
fn the_balance_check_catches_a_broken_page() {
    assert!(balanced("<div><p>x</div></p>").is_err());
    assert!(balanced("<div>").is_err());
    assert!(balanced("<p>a<br>b<svg><use href=\"#x\"/></svg></p>").is_ok());
}

#[test]
fn same_inputs_give_the_same_bytes() {
    let (map, after, events) = played();
    let (map2, after2, events2) = played();
    for who in ["FRA", "PRU"] {
        let a = report(&map, &after, &events, &k(who), None);
        let b = report(&map2, &after2, &events2, &k(who), None);
        assert_eq!(to_json(&a), to_json(&b));
        assert_eq!(text::text(&a), text::text(&b));
        assert_eq!(html::html(&a, None), html::html(&b, None));
    }
}

#[test]
fn the_json_reads_back_as_the_same_report() {
    let (fra, _) = both();
    let json = to_json(&fra);
    assert!(json.contains("\"schema_version\": 1"));
    let back: napoleonic_report::Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, fra);
}

#[test]
fn a_fleet_lost_nearby_is_seen_without_what_it_held() {
    use napoleonic_rules::event::{Event, MoveStep, When};
    let (map, after, mut events) = played();
    events.push(Event {
        when: When::Phase(3, MoveStep::SeaBattles),
        what: What::FleetLost {
            fleet: (k("PRU"), UnitId::fleet(4)),
            at: LocId(20),
            captured: vec![TroopCount {
                code: TroopCode("WAR".into()),
                count: 3,
            }],
            captured_by: None,
            scuttled: vec![],
            leaders_to: None,
        },
    });
    let fra = report(&map, &after, &events, &k("FRA"), None);
    let seen = fra
        .events
        .iter()
        .find(|e| e.text.starts_with("PRU F4 was lost"))
        .expect("France has a fleet in the Channel");
    assert_eq!(seen.seen, Seen::Nearby);
    assert!(seen.detail.is_none() && !seen.text.contains("WAR"));
}

#[test]
fn places_a_kingdoms_units_passed_through_during_the_turn_count_as_its_places() {
    use napoleonic_rules::event::{Event, MoveStep, When};
    let (map, after, mut events) = played();
    // Hanover is two steps from anything of France's: a Prussian hold there is unseen...
    let held = Event {
        when: When::Phase(3, MoveStep::March),
        what: What::Held {
            unit: (k("PRU"), UnitId::army(2)),
            at: LocId(5),
            cost: 0,
        },
    };
    events.push(held.clone());
    let sees = |events: &[Event]| {
        report(&map, &after, events, &k("FRA"), None)
            .events
            .iter()
            .any(|e| e.text.starts_with("PRU A2 held in Hanover"))
    };
    assert!(!sees(&events));
    // ...until a French army marched through the Rhineland, next door, during the turn.
    events.insert(
        0,
        Event {
            when: When::Phase(2, MoveStep::March),
            what: What::Moved {
                unit: (k("FRA"), UnitId::army(7)),
                from: LocId(3),
                to: LocId(4),
                cost: 2,
            },
        },
    );
    assert!(sees(&events));
}
