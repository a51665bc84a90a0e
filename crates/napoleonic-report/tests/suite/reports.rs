//! What each kingdom's report holds and what it must never hold (G34), the money panel
//! (G41, G42), and the text and HTML renderings.

use crate::common;

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
    assert!(text::text(&r).lines().all(|l| l.chars().count() <= 78));
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
                line.chars().count() <= 78,
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

// ---------------------------------------------------------------------------------------
// Battle reports (4.8, G34).

mod battles {
    use super::*;
    use napoleonic_report::battle::percent;
    use napoleonic_rules::battle::engine::{Battle, Setup};
    use napoleonic_rules::battle::{BattleKind, Draw, Scripted};
    use napoleonic_rules::event::{Event, MoveStep, When};
    use napoleonic_rules::state::{GameState, Leader, Troop};
    use napoleonic_rules::tables::Tables;

    /// The rulebook's fantasy troops of the example, added to the roster.
    const EXAMPLE_TROOPS: &str = r#"
[[troop]]
code = "ELE"
name = "Elephant Rider"
class = "mounted"
combat = 50
attacks = 2
hp = "4"
mp = 3
cost = "20"
upkeep = "1"
fighting_room = 4

[[troop]]
code = "DWM"
name = "Dwarf Militia"
class = "foot"
combat = 40
attacks = 1
hp = "2"
mp = 2
cost = "5"
upkeep = "1"
fighting_room = 2
"#;

    fn with_example_troops(state: &mut GameState) {
        let mut t = Tables::parse(&format!(
            "{}\n{EXAMPLE_TROOPS}",
            include_str!("../../../napoleonic-rules/data/tables.toml")
        ))
        .unwrap();
        t.fortifications[0].foot_hp = Fixed::ZERO;
        state.tables = t;
    }

    fn troops(list: &[(&str, u32)]) -> Vec<Troop> {
        list.iter()
            .flat_map(|(c, n)| {
                (0..*n).map(|_| Troop {
                    code: TroopCode(c.to_string()),
                    rank: 1,
                    mp: 2,
                    damage: Fixed::ZERO,
                })
            })
            .collect()
    }

    fn battle_event(rep: napoleonic_rules::battle::BattleReport) -> Event {
        Event {
            when: When::Phase(1, MoveStep::LandBattles),
            what: What::Battle(Box::new(rep)),
        }
    }

    /// T35 fought in Flanders: France's Patrol Force 2 against Independent Army #20 in
    /// the fortification, with the rulebook's hits.
    fn t35(state: &GameState) -> Event {
        let mut patrol = Unit::new(k("FRA"), UnitId::army(2), "Patrol Force 2".into(), LocId(3));
        patrol.troops = troops(&[("ELE", 1)]);
        patrol.leaders.push(Leader {
            name: "Hannibal".into(),
            hp: Fixed::whole(2),
            combat: 50,
            attacks: 2,
            infantry: 0,
            cavalry: 0,
            siege: 0,
            naval: 0,
            upkeep: Fixed::whole(1),
            damage: Fixed::ZERO,
        });
        patrol.unit_leader = Some(0);
        let mut ind = Unit::new(k("IND"), UnitId::army(20), "Local levies".into(), LocId(3));
        ind.troops = troops(&[("DWM", 2)]);
        let mut b = Battle::new(BattleKind::Land, LocId(3), None);
        b.add_side(vec![k("FRA")]);
        b.add_side(vec![k("IND")]);
        b.set_enemies(&k("FRA"), &k("IND"));
        b.set_fort(1, 0, &state.tables);
        b.add_unit(0, &patrol, &state.tables, Setup::default());
        let defend = Setup {
            wants_to_defend: true,
            ..Setup::default()
        };
        b.add_unit(1, &ind, &state.tables, defend);
        let mut d = Scripted::new(35)
            .chances(Draw::Hit, [true, true, false, false, true, true])
            .chances(Draw::Hit, [true, true, false, false, true, false])
            .chances(Draw::Wounded, [true]);
        battle_event(b.fight(&mut d))
    }

    #[test]
    fn t35_a_battle_report_reads_as_the_rulebooks_example() {
        let (map, mut after, mut events) = played();
        with_example_troops(&mut after);
        events.push(t35(&after));
        let fra = report(&map, &after, &events, &k("FRA"), None);
        let b = fra
            .battles
            .iter()
            .find(|b| b.lines.iter().any(|l| l.starts_with("Patrol Force 2")))
            .expect("France fought it");
        assert!(b.took_part);
        assert_eq!(b.winners, vec![k("FRA")]);
        let expected = [
            "A land battle occurred at: 3 Flanders",
            "The following units were involved:",
            "Patrol Force 2 (Our Army #2), led by Hannibal (Total Combat: 200, Total Hit Points: 6): 1 Elephant Rider, Hannibal",
            "Independent Army #20, defending the fortifications (with the fortification modifier) (Total Combat: 80, Total Hit Points: 4)",
            "The events for Round #1:",
            "Patrol Force 2 (Our Army #2) (Retreat Level 5):",
            "   1 Elephant Rider Caused 2 Damage",
            "   Hannibal Caused 0 Damage",
            "Independent Army #20:",
            "   2 Dwarf Militia Caused 2 Damage",
            "Unit Status for the End of this Round: #1:",
            "Patrol Force 2 (Our Army #2) suffered 2 damage (Total Hit Points: 6, Total Damage Taken: 2)",
            "Independent Army #20 suffered 2 damage (Total Hit Points: 4, Total Damage Taken: 2)",
            "Casualties: None (this is not a casualty round)",
            "The events for Round #2:",
            "   2 Dwarf Militia Caused 1 Damage",
            "Patrol Force 2 (Our Army #2) suffered 1 damage (Total Hit Points: 6, Total Damage Taken: 3)",
            "Independent Army #20 suffered 2 damage (Total Hit Points: 4, Total Damage Taken: 4)",
            "Casualties for Round #2:",
            "Patrol Force 2 (Our Army #2) suffered 3 damage, with no losses, 3 more Damage remains",
            "Independent Army #20 suffered 4 damage, with these losses:",
            "   2 Dwarf Militia (Hit Points: 2) are killed, 0 more Damage remains",
            "The battle has ended.",
            "Wounded: 1 Elephant Rider of Patrol Force 2 (Our Army #2) (3 damage of 4 hit points, a 75% chance of destruction) was destroyed",
            "You won after 2 rounds.",
        ];
        let mut at = 0;
        for line in expected {
            let found = b.lines[at..].iter().position(|l| l == line);
            assert!(
                found.is_some(),
                "{line:?} after line {at} in {:#?}",
                b.lines
            );
            at += found.unwrap() + 1;
        }
        // The same in the printed text (78 columns) and on the page.
        let t = text::text(&fra);
        assert!(t.contains("BATTLE REPORTS"));
        assert!(t.contains("A land battle occurred at: 3 Flanders"));
        assert!(t.contains("2 Dwarf Militia Caused 2 Damage"));
        assert!(t.lines().all(|l| l.chars().count() <= 78));
        let h = html::html(&fra, None);
        assert!(h.contains("<h3>A land battle occurred at: 3 Flanders"));
        assert!(h.contains(
            "<p class=\"sub\">2 Dwarf Militia (Hit Points: 2) are killed, 0 more Damage remains</p>"
        ));
        // Each round starts under a rule of its own.
        assert!(h.contains("<p class=\"round\">The events for Round #1:</p>"));
        assert!(balanced(&h).is_ok());
        // Prussia's army went to the Rhineland, next to Flanders: Prussia sees who fought
        // there and who won, nothing more.
        let pru = report(&map, &after, &events, &k("PRU"), None);
        let seen: Vec<_> = pru.battles.iter().filter(|b| b.at.id == LocId(3)).collect();
        assert!(!seen.is_empty());
        assert!(seen.iter().all(|b| !b.took_part && b.lines.len() == 3));
        let pj = to_json(&pru);
        for secret in [
            "Patrol Force",
            "Hannibal",
            "Elephant Rider",
            "Dwarf Militia",
        ] {
            assert!(!pj.contains(secret), "Prussia's report shows {secret:?}");
        }
    }

    /// Prussia's secret army and leader fighting the independents in a place.
    fn prussian_battle(state: &GameState, at: u16) -> Event {
        // Its leader as the turn began (a Commoner's leaders leave at L18).
        let mut a1 = start(&map())
            .unit(&k("PRU"), UnitId::army(1))
            .unwrap()
            .clone();
        a1.location = LocId(at);
        let mut ind = Unit::new(
            k("IND"),
            UnitId::garrison(LocId(at)),
            "Garrison".into(),
            LocId(at),
        );
        ind.troops = troops(&[("MIL", 2)]);
        let mut b = Battle::new(BattleKind::Land, LocId(at), None);
        b.add_side(vec![k("IND")]);
        b.add_side(vec![k("PRU")]);
        b.set_enemies(&k("PRU"), &k("IND"));
        b.add_unit(0, &ind, &state.tables, Setup::default());
        b.add_unit(1, &a1, &state.tables, Setup::default());
        battle_event(b.fight(&mut Scripted::new(at.into())))
    }

    #[test]
    fn g34_a_battle_far_away_is_not_in_the_report_and_one_next_door_only_in_outline() {
        let (map, after, mut events) = played();
        // Saxony is far from anything of France's; the Rhineland borders Paris.
        events.push(prussian_battle(&after, 7));
        events.push(prussian_battle(&after, 4));
        let fra = report(&map, &after, &events, &k("FRA"), None);
        let pru = report(&map, &after, &events, &k("PRU"), None);
        let fj = to_json(&fra);
        assert!(
            !fra.battles.iter().any(|b| b.at.id == LocId(7)),
            "Saxony is out of sight"
        );
        assert!(!fra.events.iter().any(|e| e.text.contains("Saxony")));
        let near = fra
            .battles
            .iter()
            .find(|b| b.at.id == LocId(4))
            .expect("the Rhineland is next to Paris");
        assert!(!near.took_part);
        assert_eq!(near.lines.len(), 3, "{:#?}", near.lines);
        assert_eq!(near.lines[0], "A land battle occurred at: 4 Rhineland.");
        assert_eq!(near.lines[1], "Between Independent and Prussia.");
        for secret in ["Secret Guard of Berlin", "General Hiddenmarck"] {
            assert!(!fj.contains(secret), "France's report shows {secret:?}");
        }
        let outline = near.lines.join(" ");
        assert!(!outline.contains("Total Combat") && !outline.contains("Caused"));
        let seen = fra
            .events
            .iter()
            .find(|e| e.text.starts_with("A land battle occurred at: 4 Rhineland"))
            .expect("the outcome among the events");
        assert_eq!(seen.seen, Seen::Nearby);
        assert!(
            seen.detail.is_none(),
            "the engine's record is never passed on"
        );
        // Prussia fought both and reads both in full, under its own names.
        let mine: Vec<&napoleonic_report::model::BattleReport> =
            pru.battles.iter().filter(|b| b.took_part).collect();
        assert!(mine.len() >= 2);
        let pj = to_json(&pru);
        assert!(pj.contains("Secret Guard of Berlin (Our Army #1)"));
        assert!(pj.contains("General Hiddenmarck"));
        assert!(pj.contains("Retreat Level"));
    }

    #[test]
    fn g34_an_enemy_in_battle_is_known_by_kingdom_and_number_only() {
        let (map, after, mut events) = played();
        let fra_a1 = after.unit(&k("FRA"), UnitId::army(1)).cloned();
        let pru_a1 = start(&map)
            .unit(&k("PRU"), UnitId::army(1))
            .unwrap()
            .clone();
        let mut b = Battle::new(BattleKind::Border, LocId(1), Some(LocId(4)));
        b.add_side(vec![k("FRA")]);
        b.add_side(vec![k("PRU")]);
        b.set_enemies(&k("FRA"), &k("PRU"));
        let fra_unit = fra_a1.unwrap_or_else(|| {
            let mut u = Unit::new(k("FRA"), UnitId::army(1), "Grande Armee".into(), LocId(1));
            u.troops = troops(&[("LIN", 3)]);
            u
        });
        b.add_unit(0, &fra_unit, &after.tables, Setup::default());
        b.add_unit(1, &pru_a1, &after.tables, Setup::default());
        events.push(Event {
            when: When::Phase(2, MoveStep::BorderBattles),
            what: What::Battle(Box::new(b.fight(&mut Scripted::new(9)))),
        });
        let fra = report(&map, &after, &events, &k("FRA"), None);
        let fought = fra
            .battles
            .iter()
            .find(|b| b.kind == BattleKind::Border)
            .expect("France fought on the border");
        assert!(fought.took_part);
        assert!(
            fought.lines[0]
                .starts_with("A battle occurred across the border of 1 Paris and 4 Rhineland")
        );
        let all = fought.lines.join("\n");
        assert!(all.contains("Prussia Army #1"));
        assert!(all.contains("(Our Army #1)"));
        assert!(all.contains("a leader"), "{all}");
        let fj = to_json(&fra);
        assert!(!fj.contains("Secret Guard of Berlin") && !fj.contains("General Hiddenmarck"));
        assert!(!all.contains("Prussia Army #1 (Retreat Level"));
    }

    #[test]
    fn chances_are_written_as_percentages() {
        assert_eq!(percent(7_500), "75%");
        assert_eq!(percent(3_630), "36.3%");
        assert_eq!(percent(6_666), "66.66%");
        assert_eq!(percent(5), "0.05%");
    }
}

/// N9: Prussia's cuirassier recruited in Berlin (L4) is in France's count for Berlin at
/// once, as a miniature on the board, but France is never told of the recruiting.
#[test]
fn n9_recruits_show_in_the_counts_but_the_recruiting_stays_hidden() {
    let (map, after, events) = played();
    let berlin = LocId(6);
    let garrison = after.unit(&k("PRU"), UnitId::garrison(berlin)).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            &e.what,
            What::TroopsBuilt { unit, .. } if unit.0 == k("PRU") && unit.1 == garrison.id
        )),
        "Prussia recruited in Berlin"
    );
    let fra = report(&map, &after, &events, &k("FRA"), None);
    let seen = fra
        .foreign_forces
        .iter()
        .find(|f| f.location.id == berlin)
        .expect("Berlin's forces are counted");
    assert_eq!(seen.count, foreign_count(&after.units, &k("FRA"), berlin));
    assert!(
        !fra.events
            .iter()
            .any(|e| e.text.to_lowercase().contains("recruit")),
        "{:?}",
        fra.events
    );
    let pru = report(&map, &after, &events, &k("PRU"), None);
    assert!(
        pru.events
            .iter()
            .any(|e| e.text.to_lowercase().contains("recruit") || e.text.contains("CUI")),
        "{:?}",
        pru.events
    );
}
